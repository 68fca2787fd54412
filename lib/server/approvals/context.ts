import "server-only";
import { dailyLimitOf } from "@/lib/shared/policy";
import type { Role } from "@/lib/shared/roles";
import type { ApprovalContext } from "@/lib/shared/approval-context";
import { spendNow } from "../create/controls/facts";
import { totalsOf } from "../create/controls/totals";
import { heldCreate } from "../create/pipeline";
import { currentPolicy } from "../db/policy";
import type { Runtime } from "../runtime";
import { loadApproval } from "./decisions";

/**
 * The approver's view beside a held create (lib/shared/approval-context.ts): read only, from the
 * same sources the controls weigh at send (the service's balances, the journal's totals, the
 * policy in force), so what the card shows is what the send will be checked against.
 */
export async function approvalContext(rt: Runtime, id: string): Promise<ApprovalContext> {
  const row = await loadApproval(rt, id);
  if (row.kind !== "order" && row.kind !== "transfer") return { spend: null, requester: null };
  const create = heldCreate(row);
  const [spend, totals, policy] = await Promise.all([
    spendNow(rt, create),
    totalsOf(rt.db, { email: row.requested_by, kind: row.kind, refId: row.ref_id }),
    currentPolicy(rt.db),
  ]);
  return {
    spend,
    requester: {
      email: row.requested_by,
      kind: row.kind,
      today_usd: totals.today,
      daily_limit_usd: dailyLimitOf(policy.limits, row.kind),
      unapproved_24h_usd: totals.unapproved24h,
      max_order_usd:
        row.kind === "order" ? (policy.limits.max_order_notional_usd[row.requested_role as Role] ?? null) : null,
    },
  };
}
