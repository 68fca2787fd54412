import { json, methodNotAllowed } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { listTransfers } from "@/lib/server/lists/transfers-list";

/**
 * The transfers table's list of legs: the service's filters (profile_ids, statuses, type, the
 * created_at range as from/to) sent to it, asset applied while walking its pages, sort within
 * one asset; one page and its cursor.
 */
export const GET = withRole("read", async ({ request, runtime }) =>
  json(await listTransfers(runtime, new URL(request.url))),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
