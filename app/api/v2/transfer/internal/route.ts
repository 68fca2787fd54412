import { CONFIRM_REPEAT_HEADER } from "@/lib/shared/repeats";
import { jsonBody, methodNotAllowed } from "@/lib/server/http/toolkit";
import { createInternalTransfer } from "@/lib/server/create/pipeline";
import { relay, withRole } from "@/lib/server/http/route";

/** Create Internal Transfer, through the one create path (lib/server/create/pipeline.ts): its scope required, a recent repeat asked about first (Confirm-Duplicate), the desk's controls (limits, funds, four eyes), journaled, sent once. */
export const POST = withRole("transfers:create", async ({ request, user, runtime, ip }) =>
  relay(
    await createInternalTransfer(runtime, await jsonBody(request), {
      user,
      ip,
      confirmRepeatOf: request.headers.get(CONFIRM_REPEAT_HEADER),
    }),
  ),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
