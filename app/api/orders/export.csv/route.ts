import { methodNotAllowed } from "@/lib/http";
import { csvResponse } from "@/lib/server/csv-response";
import { exportOrders } from "@/lib/server/orders-list";
import { withRole } from "@/lib/server/route";

/** Every order matching the orders table's filters, as a CSV streamed while the service's pages are read. */
export const GET = withRole("read", async ({ request, runtime }) => {
  const { header, rows } = exportOrders(runtime, new URL(request.url));
  return csvResponse("orders", header, rows);
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
