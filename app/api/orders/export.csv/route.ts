import { csvExportRoute } from "@/lib/server/lists/csv-export";
import { exportOrders } from "@/lib/server/lists/orders-list";

/** Every order matching the orders table's filters, as a CSV streamed while the service's pages are read. Audited. */
export const { GET, POST, PUT, PATCH, DELETE } = csvExportRoute("orders", exportOrders);
