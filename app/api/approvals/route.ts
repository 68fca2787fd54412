import { methodNotAllowed, parseOr400, queryOf } from "@/lib/server/http/toolkit";
import { listApprovals } from "@/lib/server/approvals/decisions";
import { approvalsQuerySchema } from "@/lib/server/http/route-schemas";
import { withRole } from "@/lib/server/http/route";

/** Approval requests, newest first; `?status=PENDING` is the approvers' inbox. */
export const GET = withRole("read", async ({ request, runtime }) => {
  const { status } = parseOr400(approvalsQuerySchema, queryOf(new URL(request.url), ["status"]));
  return Response.json({ items: await listApprovals(runtime, status) });
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
