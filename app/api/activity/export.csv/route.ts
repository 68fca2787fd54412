import { csvExportRoute } from "@/lib/server/lists/csv-export";
import { exportActivity } from "@/lib/server/lists/activity-list";

/** Every journal entry matching the activity table's filters, as a CSV streamed page by page. Audited. */
export const { GET, POST, PUT, PATCH, DELETE } = csvExportRoute("activity", exportActivity);
