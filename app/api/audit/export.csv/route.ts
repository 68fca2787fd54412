import { exportAudit } from "@/lib/server/lists/audit-list";
import { csvExportRoute } from "@/lib/server/lists/csv-export";

/** Every audit entry matching the Activity page's audit filters, as a streamed CSV (admin); audited too. */
export const { GET, POST, PUT, PATCH, DELETE } = csvExportRoute("audit", exportAudit, "audit:read");
