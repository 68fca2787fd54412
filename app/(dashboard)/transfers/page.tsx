import type { Metadata } from "next";
import { ControlsLine } from "@/components/forms/controls-line";
import { TransferForm } from "@/components/transfers/transfer-form";
import { TransfersTable } from "@/components/lazy-tables";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { can } from "@/lib/shared/roles";
import { formControlsFor } from "@/lib/shared/policy";
import { requireUser } from "@/lib/server/auth/require-user";
import { currentPolicy } from "@/lib/server/db/policy";
import { runtime } from "@/lib/server/runtime";
import { hasScope } from "@/lib/server/upstream/scopes";
import { lackedScopeDetail, OPERATIONS } from "@/lib/spec";

export const metadata: Metadata = { title: "Transfers" };

export default async function TransfersPage() {
  const user = await requireUser();
  const rt = await runtime();
  const controls = formControlsFor(await currentPolicy(rt.db), user.role, "transfer");
  const ops = can(user.role, "transfers:create");
  // Without the scope (SERVICE_SCOPES) the service would refuse every transfer: the form says why it is off.
  const scope = OPERATIONS.createInternalTransfer.scope;
  const writable = hasScope(scope, rt.config.SERVICE_SCOPES);
  return (
    // A role without the form gets its note as a strip above the table, not a column beside it.
    <div className={`grid items-start gap-6 ${ops && writable ? "xl:grid-cols-[400px_minmax(0,1fr)]" : ""}`}>
      <h1 className="sr-only">Transfers</h1>
      {ops && writable ? (
        <TransferForm controlsLine={<ControlsLine controls={controls} />} />
      ) : ops ? (
        <ReadOnlyNote>Creating transfers is off: {lackedScopeDetail(scope)}.</ReadOnlyNote>
      ) : (
        <ReadOnlyNote>You can read transfers; creating them needs the ops role.</ReadOnlyNote>
      )}
      <TransfersTable />
    </div>
  );
}
