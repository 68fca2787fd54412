import { CONFIRM_REPEAT_HEADER } from "@/lib/shared/repeats";
import { CONFIRM_PRICE_GUARD_HEADER } from "@/lib/shared/price-guard";
import { jsonBody, methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { createOrder } from "@/lib/server/create/pipeline";
import { relay, withRole } from "@/lib/server/http/route";

/** Create Order, through the one create path (lib/server/create/pipeline.ts): its scope required, a recent repeat asked about first (Confirm-Duplicate), the desk's controls (limits, price guard, four eyes), journaled, sent once. */
export const POST = withRole<{ profile_id: string }>(
  "orders:create",
  async ({ request, params, user, runtime, ip }) => {
    const profileId = pathId("profile_id", params.profile_id);
    return relay(
      await createOrder(runtime, profileId, await jsonBody(request), {
        user,
        ip,
        confirmedMarket: request.headers.get(CONFIRM_PRICE_GUARD_HEADER),
        confirmRepeatOf: request.headers.get(CONFIRM_REPEAT_HEADER),
      }),
    );
  },
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
