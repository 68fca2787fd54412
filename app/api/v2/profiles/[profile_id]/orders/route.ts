import { CONFIRM_DUPLICATE_HEADER } from "@/lib/duplicates";
import { CONFIRM_PRICE_GUARD_HEADER } from "@/lib/price-guard";
import { jsonBody, methodNotAllowed, pathId } from "@/lib/http";
import { createOrder } from "@/lib/server/creates";
import { relay, withRole } from "@/lib/server/route";
import { requireScope } from "@/lib/server/upstream/scopes";

/** Create Order: validated, through the desk's controls (limits, price guard, four eyes), journaled, sent once; a recent repeat asked about first (Confirm-Duplicate). */
export const POST = withRole<{ profile_id: string }>(
  "orders:create",
  async ({ request, params, user, runtime, ip }) => {
    requireScope("exchange:write_order");
    const profileId = pathId("profile_id", params.profile_id);
    const confirmedMarket = request.headers.get(CONFIRM_PRICE_GUARD_HEADER);
    return relay(
      await createOrder(runtime, profileId, await jsonBody(request), {
        user,
        ip,
        confirmedMarket,
        confirmDuplicateOf: request.headers.get(CONFIRM_DUPLICATE_HEADER),
      }),
    );
  },
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
