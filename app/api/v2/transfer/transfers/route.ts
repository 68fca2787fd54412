import { methodNotAllowed, queryOf } from "@/lib/http";
import { relay, withRole } from "@/lib/server/route";

export const GET = withRole("read", async ({ request, runtime }) =>
  relay(
    await runtime.upstream.request({
      method: "GET",
      path: "/transfer/transfers",
      query: queryOf(
        new URL(request.url),
        ["type", "limit", "page_cursor"],
        ["profile_ids", "ref_ids", "group_ids", "statuses"],
      ),
    }),
  ),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
