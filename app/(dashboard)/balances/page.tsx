import type { Metadata } from "next";
import { BalancesView } from "@/components/balances/balances-view";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Balances" };

/** Every role reads balances (the "read" action); nothing here changes anything. */
export default async function BalancesPage() {
  await requireUser();
  return (
    <div>
      <h1 className="sr-only">Balances</h1>
      <BalancesView />
    </div>
  );
}
