import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { withdraw } from "@/lib/server/approvals/decisions";
import { withRole } from "@/lib/server/http/route";

/** The requester takes back a request that is still pending; it is never sent. */
export const POST = withRole<{ id: string }>("approvals:withdraw", async ({ params, user, runtime, ip }) =>
  Response.json({ approval: await withdraw(runtime, user, pathId("id", params.id), ip) }),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
