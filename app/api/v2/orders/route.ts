import { methodNotAllowed, queryOf } from "@/lib/server/http/toolkit";
import { relay, withRole } from "@/lib/server/http/route";

export const GET = withRole("read", async ({ request, runtime }) =>
  relay(
    await runtime.upstream.request({
      method: "GET",
      path: "/orders",
      query: queryOf(new URL(request.url), ["profile_id", "market", "status", "limit", "page_cursor"], ["ref_ids"]),
    }),
  ),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
