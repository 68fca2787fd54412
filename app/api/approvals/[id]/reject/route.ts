import { jsonBody, methodNotAllowed, parseOr400, pathId } from "@/lib/server/http/toolkit";
import { reject } from "@/lib/server/approvals/decisions";
import { withRole } from "@/lib/server/http/route";
import { rejectBodySchema } from "@/lib/server/http/route-schemas";

/** An approver rejects the request, with a reason kept and shown; it is never sent. */
export const POST = withRole<{ id: string }>("approve", async ({ request, params, user, runtime, ip }) => {
  const id = pathId("id", params.id);
  const { reason } = parseOr400(rejectBodySchema, await jsonBody(request));
  return Response.json({ approval: await reject(runtime, user, id, reason, ip) });
});

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
