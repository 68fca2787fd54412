import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { cancelBatch } from "@/lib/server/batches/read";
import { withRole } from "@/lib/server/http/route";

/** The requester (or an admin) stops a batch: the rows not yet sent are skipped. */
export const POST = withRole<{ id: string }>("batches:create", async ({ params, user, runtime, ip }) =>
  Response.json({ batch: await cancelBatch(runtime, user, pathId("id", params.id), ip) }),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
