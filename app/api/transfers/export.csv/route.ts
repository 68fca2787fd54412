import { methodNotAllowed } from "@/lib/http";
import { csvResponse } from "@/lib/server/csv-response";
import { withRole } from "@/lib/server/route";
import { exportTransfers } from "@/lib/server/transfers-list";

/** Every transfer leg matching the transfers table's filters, as a CSV streamed while the service's pages are read. */
export const GET = withRole("read", async ({ request, runtime }) => {
  const { header, rows } = exportTransfers(runtime, new URL(request.url));
  return csvResponse("transfers", header, rows);
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
