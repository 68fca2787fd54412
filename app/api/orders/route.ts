import { json, methodNotAllowed } from "@/lib/server/http/toolkit";
import { listOrders } from "@/lib/server/lists/orders-list";
import { withRole } from "@/lib/server/http/route";

/**
 * The orders table's list: the service's filters (profile_id, market, status) sent to it, side
 * and type applied while walking its pages, sort within one market; one page and its cursor.
 */
export const GET = withRole("read", async ({ request, runtime }) =>
  json(await listOrders(runtime, new URL(request.url))),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
