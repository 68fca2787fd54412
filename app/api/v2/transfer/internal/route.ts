import { jsonBody, methodNotAllowed } from "@/lib/http";
import { createInternalTransfer } from "@/lib/server/creates";
import { relay, withRole } from "@/lib/server/route";

/** Create Internal Transfer: validated, through four eyes, journaled, sent once. */
export const POST = withRole("transfers:create", async ({ request, user, runtime, ip }) =>
  relay(await createInternalTransfer(runtime, await jsonBody(request), { user, ip })),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
