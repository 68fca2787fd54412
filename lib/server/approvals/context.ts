import "server-only";
import { dailyLimitOf } from "@/lib/shared/policy";
import type { Role } from "@/lib/shared/roles";
import type { ApprovalContext, ApprovalSpend } from "@/lib/shared/approval-context";
import { loadApproval } from "./store";
import { balancesOf, spendOf } from "../create/controls/facts";
import { totalsOf } from "../create/controls/totals";
import { storedCreate } from "../create/parse";
import type { Create } from "../create/create";
import { currentPolicy } from "./policy-updates";
import type { Runtime } from "../runtime";

/**
 * The approver's view beside a held create (lib/shared/approval-context.ts): read only, from the
 * same sources the controls weigh at send (the service's balances, the journal's totals, the
 * policy in force), so what the card shows is what the send will be checked against.
 */
export async function approvalContext(rt: Runtime, id: string): Promise<ApprovalContext> {
  const row = await loadApproval(rt.db, id);
  if (row.kind !== "order" && row.kind !== "transfer") return { spend: null, requester: null };
  const create = storedCreate(row.kind, row.profile_id, JSON.parse(row.request_json));
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

async function spendNow(rt: Runtime, create: Create): Promise<ApprovalSpend | null> {
  const spend = spendOf(create);
  if (!spend) return null;
  const balances = await balancesOf(rt, create.profileId);
  const available = Array.isArray(balances) ? (balances.find((b) => b.asset === spend.asset)?.available ?? "0") : null;
  return { profile_id: create.profileId, ...spend, available };
}
