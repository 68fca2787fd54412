import "server-only";
import type { PolicyChangedData } from "@/lib/shared/event-data";
import { DEFAULT_POLICY, withDefaults, type Policy } from "@/lib/shared/policy";
import type { Db } from "./index";
import { recordEvent } from "./outbox";

/**
 * The desk's policy as stored (table `policy`, one row): read by the create path's controls and
 * by the pages, written by lib/server/approvals/policy-updates.ts once a change may apply.
 */

/** The policy in force: the stored one (its missing fields from the defaults), or the defaults until an admin first changes it. */
export async function currentPolicy(db: Db): Promise<Policy> {
  const row = await db.selectFrom("policy").select("document_json").where("id", "=", 1).executeTakeFirst();
  return row ? withDefaults(JSON.parse(row.document_json) as Policy) : DEFAULT_POLICY;
}

/** Who changed the policy, when, and the approval it was applied under, if any. */
export interface PolicyChange {
  by: string;
  at: Date;
  approval_id?: string;
  approved_by?: string;
}

/**
 * Puts `policy` in force with its `policy.changed` event, in a transaction of its own (pass the
 * database): the event's `previous` is the policy this very write replaced.
 */
export async function storePolicy(db: Db, policy: Policy, change: PolicyChange): Promise<void> {
  const { by, at, ...approval } = change;
  const row = { document_json: JSON.stringify(policy), updated_at: at.toISOString(), updated_by: by };
  await db.transaction().execute(async (tx) => {
    const previous = await currentPolicy(tx);
    await tx
      .insertInto("policy")
      .values({ id: 1, ...row })
      .onConflict((oc) => oc.column("id").doUpdateSet(row))
      .execute();
    const data: PolicyChangedData = { policy: withDefaults(policy), previous, changed_by: by, ...approval };
    await recordEvent(tx, { type: "policy.changed", at, data });
  });
}
