import type { Metadata } from "next";
import { TransferForm } from "@/components/transfers/transfer-form";
import { TransfersTable } from "@/components/lazy-tables";
import { can } from "@/lib/roles";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Transfers" };

export default async function TransfersPage() {
  const user = await requireUser();
  const ops = can(user.role, "transfers:create");
  return (
    <div className={ops ? "grid items-start gap-6 xl:grid-cols-[400px_minmax(0,1fr)]" : ""}>
      <h1 className="sr-only">Transfers</h1>
      {ops && <TransferForm />}
      <TransfersTable />
    </div>
  );
}
