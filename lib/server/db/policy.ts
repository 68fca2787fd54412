import "server-only";
import { DEFAULT_POLICY, withDefaults, type Policy } from "@/lib/shared/policy";
import type { Db } from "./index";

/**
 * The desk's policy as stored (table `policy`, one row): read by the create path's controls and
 * by the pages, written by lib/server/approvals/policy-updates.ts once a change may apply.
 */

/** The policy in force: the stored one (its missing fields from the defaults), or the defaults until an admin first changes it. */
export async function currentPolicy(db: Db): Promise<Policy> {
  const row = await db.selectFrom("policy").select("document_json").where("id", "=", 1).executeTakeFirst();
  return row ? withDefaults(JSON.parse(row.document_json) as Policy) : DEFAULT_POLICY;
}

/** Puts `policy` in force, as changed by `by` at `at`. */
export async function storePolicy(db: Db, policy: Policy, by: string, at: Date): Promise<void> {
  const row = { document_json: JSON.stringify(policy), updated_at: at.toISOString(), updated_by: by };
  await db
    .insertInto("policy")
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column("id").doUpdateSet(row))
    .execute();
}
