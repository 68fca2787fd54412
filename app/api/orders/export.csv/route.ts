import { csvExportRoute } from "@/lib/server/csv-export";
import { exportOrders } from "@/lib/server/orders-list";

/** Every order matching the orders table's filters, as a CSV streamed while the service's pages are read. Audited. */
export const { GET, POST, PUT, PATCH, DELETE } = csvExportRoute("orders", exportOrders);
