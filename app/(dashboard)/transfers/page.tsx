import type { Metadata } from "next";
import { TransferForm } from "@/components/transfers/transfer-form";
import { TransfersTable } from "@/components/lazy-tables";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { can } from "@/lib/roles";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Transfers" };

export default async function TransfersPage() {
  const user = await requireUser();
  return (
    <div className="grid items-start gap-6 xl:grid-cols-[400px_minmax(0,1fr)]">
      <h1 className="sr-only">Transfers</h1>
      {can(user.role, "transfers:create") ? (
        <TransferForm />
      ) : (
        <ReadOnlyNote>You can read transfers; creating them needs the ops role.</ReadOnlyNote>
      )}
      <TransfersTable />
    </div>
  );
}
