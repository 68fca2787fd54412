import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { relay, withRole } from "@/lib/server/http/route";

export const GET = withRole<{ profile_id: string }>("read", async ({ params, runtime }) =>
  relay(
    await runtime.upstream.request({
      method: "GET",
      path: `/profiles/${pathId("profile_id", params.profile_id)}/balances`,
    }),
  ),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
