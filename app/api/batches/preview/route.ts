import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { previewBatch } from "@/lib/server/batches/preview";
import { readBatchRequest } from "@/lib/server/batches/read-request";
import { withRole } from "@/lib/server/http/route";

/** The Batches page's preview: the same body as POST /api/batches, every refused field, and the controls' verdict as if sent now. Nothing is stored. */
export const POST = withRole("batches:create", async ({ request, user, runtime }) =>
  Response.json({ preview: await previewBatch(runtime, await readBatchRequest(runtime, request), user) }),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
