import { json, jsonBody, methodNotAllowed } from "@/lib/server/http/toolkit";
import { declineRepeat } from "@/lib/server/create/decline-repeat";
import { withRole } from "@/lib/server/http/route";

/**
 * "Don't send": the person declined a create that repeated their own recent one. Nothing is
 * sent; the journal keeps a 'declined' entry and the audit trail `create.declined`. The role to
 * send that kind of create is checked inside, and only a repeat of the person's own create,
 * under a ref_id nobody has used, is accepted.
 */
export const POST = withRole("read", async ({ request, user, runtime }) =>
  json(await declineRepeat(runtime, user, await jsonBody(request))),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
