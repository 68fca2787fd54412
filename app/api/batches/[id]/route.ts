import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { getBatch } from "@/lib/server/batches/read";
import { withRole } from "@/lib/server/http/route";

export const GET = withRole<{ id: string }>("read", async ({ params, runtime }) =>
  Response.json({ batch: await getBatch(runtime, pathId("id", params.id)) }),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
