import "server-only";
import { parseOr400 } from "@/lib/http";
import { DEFAULT_POLICY, policySchema, type Policy } from "@/lib/policy";
import type { SignedInUser } from "./auth/session";
import type { Db } from "./db";
import type { Runtime } from "./runtime";

/** The policy in force: the stored one, or the defaults until an admin first changes it. */
export async function currentPolicy(db: Db): Promise<Policy> {
  const row = await db.selectFrom("policy").select("document_json").where("id", "=", 1).executeTakeFirst();
  return row ? (JSON.parse(row.document_json) as Policy) : DEFAULT_POLICY;
}

/** Replaces the policy (checked whole, every error naming its field), audited with its before and after. */
export async function replacePolicy(rt: Runtime, user: SignedInUser, input: unknown, ip: string | null) {
  const next = parseOr400(policySchema, input) as Policy;
  const before = await currentPolicy(rt.db);
  const row = { document_json: JSON.stringify(next), updated_at: new Date().toISOString(), updated_by: user.email };
  await rt.db
    .insertInto("policy")
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column("id").doUpdateSet(row))
    .execute();
  await rt.audit.append({
    action: "policy.changed",
    actor: user,
    ip,
    subject: "policy",
    detail: { before, after: next },
  });
  return next;
}
