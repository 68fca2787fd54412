import { methodNotAllowed, withRole } from "@/lib/server/route";
import { relay } from "@/lib/server/service/relay";
import { SCOPE, upstream } from "@/lib/server/service/upstream";
import { queryOf } from "@/lib/server/service/validate";

export const GET = withRole("read", async ({ request }) =>
  relay(
    await upstream().request({
      method: "GET",
      path: "/orders",
      scopes: SCOPE.readOrder,
      query: queryOf(new URL(request.url), ["profile_id", "market", "status", "limit", "page_cursor"], ["ref_ids"]),
    }),
  ),
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
