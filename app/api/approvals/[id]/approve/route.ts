import { methodNotAllowed, pathId } from "@/lib/http";
import { approve } from "@/lib/server/approvals";
import { withRole } from "@/lib/server/route";

/** An approver's approval; the last one needed sends the request, once. */
export const POST = withRole<{ id: string }>("approve", async ({ params, user, runtime, ip }) =>
  Response.json({ approval: await approve(runtime, user, pathId("id", params.id), ip) }),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
