import * as z from "zod";
import { methodNotAllowed, parseOr400, queryOf } from "@/lib/server/http/toolkit";
import { APPROVAL_STATUSES, listApprovals } from "@/lib/server/approvals/decisions";
import { withRole } from "@/lib/server/http/route";

const query = z.object({
  status: z.enum(APPROVAL_STATUSES, { error: `status must be one of ${APPROVAL_STATUSES.join(", ")}` }).optional(),
});

/** Approval requests, newest first; `?status=PENDING` is the approvers' inbox. */
export const GET = withRole("read", async ({ request, runtime }) => {
  const { status } = parseOr400(query, queryOf(new URL(request.url), ["status"]));
  return Response.json({ items: await listApprovals(runtime, status) });
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
