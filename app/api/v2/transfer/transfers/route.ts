import { methodNotAllowed, queryOf } from "@/lib/server/http/toolkit";
import { relay, withRole } from "@/lib/server/http/route";
import { checkTransferCombination } from "@/lib/server/lists/transfers-list";

export const GET = withRole("read", async ({ request, runtime }) => {
  const query = queryOf(
    new URL(request.url),
    ["type", "limit", "page_cursor"],
    ["profile_ids", "ref_ids", "group_ids", "statuses"],
  );
  // A combination the service refuses is refused here, in its words, and never sent.
  checkTransferCombination(query);
  return relay(await runtime.upstream.request({ method: "GET", path: "/transfer/transfers", query }));
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
