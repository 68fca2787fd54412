import { CONFIRM_PRICE_GUARD_HEADER } from "@/lib/shared/price-guard";
import { jsonBody, methodNotAllowed } from "@/lib/server/http/toolkit";
import { createParentOrder } from "@/lib/server/parent-orders/create";
import { recentParentOrders } from "@/lib/server/parent-orders/actions";
import { relay, withRole } from "@/lib/server/http/route";

/** The parent orders, newest first, each with its children and its execution quality. */
export const GET = withRole("read", async ({ runtime }) => Response.json({ items: await recentParentOrders(runtime) }));

/**
 * A TWAP parent order: weighed whole by the controls, then worked in slices (201) or held for one
 * approval of the whole (202); a replay of its ref_id answers the parent as it stands (200).
 */
export const POST = withRole("orders:create", async ({ request, user, runtime, ip }) =>
  relay(
    await createParentOrder(runtime, await jsonBody(request), {
      user,
      ip,
      confirmedMarket: request.headers.get(CONFIRM_PRICE_GUARD_HEADER),
    }),
  ),
);

const notAllowed = () => methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
