import type { Metadata } from "next";
import { OrderTicket } from "@/components/orders/order-ticket";
import { OrdersTable } from "@/components/lazy-tables";
import { can } from "@/lib/roles";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Orders" };

export default async function OrdersPage() {
  const user = await requireUser();
  const trader = can(user.role, "orders:create");
  return (
    <div className={trader ? "grid items-start gap-6 xl:grid-cols-[400px_minmax(0,1fr)]" : ""}>
      <h1 className="sr-only">Orders</h1>
      {trader && <OrderTicket />}
      <OrdersTable canCancel={can(user.role, "orders:cancel")} />
    </div>
  );
}
