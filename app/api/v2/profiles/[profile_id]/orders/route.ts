import { CONFIRM_DUPLICATE_HEADER } from "@/lib/duplicates";
import { jsonBody, methodNotAllowed, pathId } from "@/lib/http";
import { createOrder } from "@/lib/server/creates";
import { relay, withRole } from "@/lib/server/route";

/** Create Order: validated, journaled, sent once; a recent repeat asked about first (Confirm-Duplicate). */
export const POST = withRole<{ profile_id: string }>("orders:create", async ({ request, params, user, runtime }) =>
  relay(
    await createOrder(runtime, pathId("profile_id", params.profile_id), await jsonBody(request), user, {
      confirmDuplicateOf: request.headers.get(CONFIRM_DUPLICATE_HEADER) ?? undefined,
    }),
  ),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
