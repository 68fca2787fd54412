import { methodNotAllowed, withRole } from "@/lib/server/route";
import { relay } from "@/lib/server/service/relay";
import { SCOPE, upstream } from "@/lib/server/service/upstream";
import { queryOf } from "@/lib/server/service/validate";

export const GET = withRole("read", async ({ request }) =>
  relay(
    await upstream().request({
      method: "GET",
      path: "/transfer/transfers",
      scopes: SCOPE.readTransfer,
      query: queryOf(
        new URL(request.url),
        ["type", "limit", "page_cursor"],
        ["profile_ids", "ref_ids", "group_ids", "statuses"],
      ),
    }),
  ),
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
