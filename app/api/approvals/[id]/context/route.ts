import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { approvalContext } from "@/lib/server/approvals/context";
import { withRole } from "@/lib/server/http/route";

/** What an approver reads beside a held create: its funds now and the requester's sends today. Read-only. */
export const GET = withRole<{ id: string }>("approve", async ({ params, runtime }) =>
  Response.json(await approvalContext(runtime, pathId("id", params.id))),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
