import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { approve } from "@/lib/server/approvals/decisions";
import { withRole } from "@/lib/server/http/route";

/** An approver's approval; the last one needed sends the request, once. */
export const POST = withRole<{ id: string }>("approve", async ({ params, user, runtime, ip }) =>
  Response.json({ approval: await approve(runtime, user, pathId("id", params.id), ip) }),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
