import { jsonBody, methodNotAllowed } from "@/lib/server/http/toolkit";
import { previewTransfer } from "@/lib/server/create/preview";
import { withRole } from "@/lib/server/http/route";

/**
 * The review's dry run of Create Internal Transfer: the transfer's body as it would be sent
 * answers 200 with what the desk's controls would do if it were sent now
 * (lib/shared/create-preview.ts), a 400 naming the field when it breaks a rule. Nothing is
 * written or sent.
 */
export const POST = withRole("transfers:create", async ({ request, user, runtime }) =>
  Response.json(await previewTransfer(runtime, await jsonBody(request), user)),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
