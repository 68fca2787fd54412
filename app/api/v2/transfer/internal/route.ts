import { methodNotAllowed, withRole } from "@/lib/server/route";
import { relay } from "@/lib/server/service/relay";
import { createInternalTransfer } from "@/lib/server/service/transfers";
import { jsonBody } from "@/lib/server/service/validate";

/** Create Internal Transfer: validated, journaled, sent once. */
export const POST = withRole("transfers:create", async ({ request, user }) =>
  relay(await createInternalTransfer(await jsonBody(request), user)),
);

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
