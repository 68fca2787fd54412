import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { batchResults } from "@/lib/server/batches/results";
import { csvResponse } from "@/lib/server/lists/csv-response";
import { withRole } from "@/lib/server/http/route";

/** A batch's rows with their outcomes, as a CSV file. Audited as every export is. */
export const GET = withRole<{ id: string }>("read", async ({ params, runtime, user, ip }) => {
  const id = pathId("id", params.id);
  const { name, header, rows } = await batchResults(runtime, id);
  const response = await csvResponse(name, header, rows);
  await runtime.audit.append({
    action: "export.csv",
    actor: user,
    ip,
    subject: name,
    detail: { export: name, filters: { batch_id: id } },
  });
  return response;
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
