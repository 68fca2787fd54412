import "server-only";
import { dailyLimitOf, type CreateKind } from "@/lib/shared/policy";
import type { Role } from "@/lib/shared/roles";
import type { ApprovalContext, RequesterSends } from "@/lib/shared/approval-context";
import { spendNow } from "../create/controls/facts";
import { totalsOf, type Totals } from "../create/controls/totals";
import { recipientElsewhereOf } from "../create/create";
import { heldCreate } from "../create/pipeline";
import { currentPolicy } from "../db/policy";
import type { Runtime } from "../runtime";
import { loadApproval } from "./decisions";

/**
 * The approver's view beside a held create (lib/shared/approval-context.ts): read only, from the
 * same sources the controls weigh at send (the service's balances, the journal's totals, the
 * policy in force), so what the card shows is what the send will be checked against: for an
 * order that settles into another profile, the requester's transfers too.
 */
export async function approvalContext(rt: Runtime, id: string): Promise<ApprovalContext> {
  const row = await loadApproval(rt, id);
  if (row.kind !== "order" && row.kind !== "transfer") return { spend: null, requester: null };
  const create = heldCreate(row);
  const own = { kind: create.kind, refId: row.ref_id };
  const email = row.requested_by;
  const [spend, totals, transferTotals, policy] = await Promise.all([
    spendNow(rt, create),
    totalsOf(rt.db, { email, kind: create.kind, own }),
    recipientElsewhereOf(create) ? totalsOf(rt.db, { email, kind: "transfer", own }) : undefined,
    currentPolicy(rt.db),
  ]);
  const sends = (kind: CreateKind, t: Totals): RequesterSends => ({
    email,
    kind,
    today_usd: t.today,
    daily_limit_usd: dailyLimitOf(policy.limits, kind),
    unapproved_24h_usd: t.unapproved24h,
    max_order_usd: kind === "order" ? (policy.limits.max_order_notional_usd[row.requested_role as Role] ?? null) : null,
  });
  return {
    spend,
    requester: sends(create.kind, totals),
    ...(transferTotals && { requester_transfers: sends("transfer", transferTotals) }),
  };
}
