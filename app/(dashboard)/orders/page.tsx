import type { Metadata } from "next";
import { OrderTicket } from "@/components/orders/order-ticket";
import { OrdersTable } from "@/components/lazy-tables";
import { MarketViewSlot } from "@/components/market/market-view-slot";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { can } from "@/lib/roles";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Orders" };

/** The ticket (or, for a role that may not trade, a note in its place), its market, and the orders. */
export default async function OrdersPage() {
  const user = await requireUser();
  const trader = can(user.role, "orders:create");
  return (
    <div className="grid items-start gap-6 xl:grid-cols-[400px_minmax(0,1fr)]">
      <h1 className="sr-only">Orders</h1>
      {trader ? <OrderTicket /> : <ReadOnlyNote>You can read orders; placing them needs the trader role.</ReadOnlyNote>}
      <div className="min-w-0 space-y-6">
        {trader && <MarketViewSlot />}
        <OrdersTable canCancel={can(user.role, "orders:cancel")} />
      </div>
    </div>
  );
}
