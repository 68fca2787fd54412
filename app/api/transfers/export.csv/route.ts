import { csvExportRoute } from "@/lib/server/lists/csv-export";
import { exportTransfers } from "@/lib/server/lists/transfers-list";

/** Every transfer leg matching the transfers table's filters, as a CSV streamed while the service's pages are read. Audited. */
export const { GET, POST, PUT, PATCH, DELETE } = csvExportRoute("transfers", exportTransfers);
