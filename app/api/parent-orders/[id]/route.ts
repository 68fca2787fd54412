import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { getParentOrder } from "@/lib/server/parent-orders/actions";
import { withRole } from "@/lib/server/http/route";

export const GET = withRole<{ id: string }>("read", async ({ params, runtime }) =>
  Response.json({ parent_order: await getParentOrder(runtime, pathId("id", params.id)) }),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
