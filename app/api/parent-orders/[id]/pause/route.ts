import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { actOnParent } from "@/lib/server/parent-orders/actions";
import { withRole } from "@/lib/server/http/route";

/** The requester (or an admin) pauses a working parent order: no child is sent until it resumes. */
export const POST = withRole<{ id: string }>("orders:create", async ({ params, user, runtime, ip }) =>
  Response.json({ parent_order: await actOnParent(runtime, user, pathId("id", params.id), "pause", ip) }),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
