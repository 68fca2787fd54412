import type { Metadata } from "next";
import { BatchesDesk } from "@/components/batches/batches-desk";
import { ControlsLine } from "@/components/forms/controls-line";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { formControlsFor } from "@/lib/shared/policy";
import { can } from "@/lib/shared/roles";
import { requireUser } from "@/lib/server/auth/require-user";
import { currentPolicy } from "@/lib/server/db/policy";
import { runtime } from "@/lib/server/runtime";
import { hasScope } from "@/lib/server/upstream/scopes";
import { lackedScopeDetail, OPERATIONS } from "@/lib/spec";

export const metadata: Metadata = { title: "Batches" };

/** A batch's id as the back end makes them (a UUID). */
const BATCH_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Batches of internal transfers (issue 27): ops and admins send a file of transfers (previewed
 * row by row, reviewed, then followed as it is sent) and rebalance profiles to their targets;
 * every role reads the past batches and their results.
 */
export default async function BatchesPage({ searchParams }: { searchParams: Promise<{ batch?: string }> }) {
  const user = await requireUser();
  // `?batch=<id>` opens that batch (an approver's card links here); anything else opens none.
  const asked = (await searchParams).batch;
  const openId = typeof asked === "string" && BATCH_ID.test(asked) ? asked : null;
  const rt = await runtime();
  const ops = can(user.role, "batches:create");
  // Each row is an internal transfer: without its scope (SERVICE_SCOPES) the service would refuse every one.
  const scope = OPERATIONS.createInternalTransfer.scope;
  const writable = hasScope(scope, rt.config.SERVICE_SCOPES);
  const controls = formControlsFor(await currentPolicy(rt.db), user.role, "transfer");
  return (
    <>
      <h1 className="sr-only">Batches</h1>
      <BatchesDesk
        me={{ email: user.email, admin: user.role === "admin", canCreate: ops }}
        openId={openId}
        compose={ops && writable}
        note={
          <ReadOnlyNote>
            {ops
              ? `Sending batches is off: ${lackedScopeDetail(scope)}.`
              : "You can read batches and their results; sending them needs the ops role."}
          </ReadOnlyNote>
        }
        controlsLine={<ControlsLine controls={controls} />}
      />
    </>
  );
}
