import { methodNotAllowed, withRole } from "@/lib/server/route";
import { relay } from "@/lib/server/service/relay";
import { SCOPE, upstream } from "@/lib/server/service/upstream";
import { pathId } from "@/lib/server/service/validate";

export const GET = withRole<{ profile_id: string }>("read", async ({ params }) =>
  relay(
    await upstream().request({
      method: "GET",
      path: `/profiles/${pathId("profile_id", params.profile_id)}/balances`,
      scopes: SCOPE.readProfile,
    }),
  ),
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
