import type { Metadata } from "next";
import { ControlsLine } from "@/components/forms/controls-line";
import { OrderTicket } from "@/components/orders/lazy-order-ticket";
import { OrdersTable } from "@/components/lazy-tables";
import { MARKET_WATCH_FIRST_ROWS, MarketViewSlot } from "@/components/market/market-view-slot";
import { MarketWatch } from "@/components/market/market-watch";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { can } from "@/lib/shared/roles";
import { formControlsFor } from "@/lib/shared/policy";
import { requireUser } from "@/lib/server/auth/require-user";
import { currentPolicy } from "@/lib/server/db/policy";
import { runtime } from "@/lib/server/runtime";
import { hasScope } from "@/lib/server/upstream/scopes";
import { lackedScopeDetail, OPERATIONS } from "@/lib/spec";

export const metadata: Metadata = { title: "Orders" };

/** The ticket (or, for a role that may not trade, a note in its place), its market, and the orders. */
export default async function OrdersPage() {
  const user = await requireUser();
  const rt = await runtime();
  const controls = formControlsFor(await currentPolicy(rt.db), user.role, "order");
  const trader = can(user.role, "orders:create");
  // Without the scope (SERVICE_SCOPES) the service would refuse every order and cancel: the ticket says why it is off.
  const scope = OPERATIONS.createOrder.scope;
  const writable = hasScope(scope, rt.config.SERVICE_SCOPES);
  const canCancel = can(user.role, "orders:cancel") && writable;
  return (
    // A role without the form gets its note as a strip above the table, not a column beside it.
    <div className={`grid items-start gap-6 ${trader && writable ? "xl:grid-cols-[400px_minmax(0,1fr)]" : ""}`}>
      <h1 className="sr-only">Orders</h1>
      {trader && writable ? (
        <OrderTicket email={user.email} controlsLine={<ControlsLine controls={controls} />} />
      ) : trader ? (
        <ReadOnlyNote>Placing orders is off: {lackedScopeDetail(scope)}.</ReadOnlyNote>
      ) : (
        <ReadOnlyNote>You can read orders; placing them needs the trader role.</ReadOnlyNote>
      )}
      {/* Beside the ticket, its market above the orders. For those who only read, the orders
          first on a wide screen; on a narrower one the market (of fixed height) stays on top, so
          rows arriving below it move nothing on screen, in a row kept for it from the first paint. */}
      {trader && writable ? (
        <div className="flex min-w-0 flex-col gap-6">
          <MarketViewSlot />
          <OrdersTable canCancel={canCancel} />
        </div>
      ) : (
        <div className={`grid min-w-0 grid-cols-[minmax(0,1fr)] gap-6 ${MARKET_WATCH_FIRST_ROWS}`}>
          <div className="max-lg:row-start-2">
            <OrdersTable canCancel={canCancel} />
          </div>
          <div className="max-lg:row-start-1">
            <MarketWatch />
          </div>
        </div>
      )}
    </div>
  );
}
