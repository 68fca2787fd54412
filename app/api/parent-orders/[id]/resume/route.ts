import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { actOnParent } from "@/lib/server/parent-orders/actions";
import { withRole } from "@/lib/server/http/route";

/** The requester (or an admin) resumes a paused parent order: what is still scheduled moves on by the time it was paused. */
export const POST = withRole<{ id: string }>("orders:create", async ({ params, user, runtime, ip }) =>
  Response.json({ parent_order: await actOnParent(runtime, user, pathId("id", params.id), "resume", ip) }),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
