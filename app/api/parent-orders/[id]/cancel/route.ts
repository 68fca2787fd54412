import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { actOnParent } from "@/lib/server/parent-orders/actions";
import { withRole } from "@/lib/server/http/route";

/** The requester (or an admin) cancels a parent order: the slices not yet sent are skipped. */
export const POST = withRole<{ id: string }>("orders:create", async ({ params, user, runtime, ip }) =>
  Response.json({ parent_order: await actOnParent(runtime, user, pathId("id", params.id), "cancel", ip) }),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
