import { CONFIRM_DUPLICATE_HEADER } from "@/lib/duplicates";
import { jsonBody, methodNotAllowed } from "@/lib/http";
import { createInternalTransfer } from "@/lib/server/creates";
import { relay, withRole } from "@/lib/server/route";
import { requireScope } from "@/lib/server/upstream/scopes";

/** Create Internal Transfer: validated, through four eyes, journaled, sent once; a recent repeat asked about first (Confirm-Duplicate). */
export const POST = withRole("transfers:create", async ({ request, user, runtime, ip }) => {
  requireScope("transfer:write_internal_transfer");
  return relay(
    await createInternalTransfer(runtime, await jsonBody(request), {
      user,
      ip,
      confirmDuplicateOf: request.headers.get(CONFIRM_DUPLICATE_HEADER),
    }),
  );
});

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
