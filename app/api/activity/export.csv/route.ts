import { methodNotAllowed } from "@/lib/http";
import { exportActivity } from "@/lib/server/activity-list";
import { csvResponse } from "@/lib/server/csv-response";
import { withRole } from "@/lib/server/route";

/** Every journal entry matching the activity table's filters, as a CSV streamed page by page. */
export const GET = withRole("read", async ({ request, runtime }) => {
  const { header, rows } = exportActivity(runtime, new URL(request.url));
  return csvResponse("activity", header, rows);
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
