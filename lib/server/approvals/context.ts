import "server-only";
import { dailyLimitOf, type CreateKind, type Policy } from "@/lib/shared/policy";
import type { Role } from "@/lib/shared/roles";
import type { ApprovalContext, RequesterSends } from "@/lib/shared/approval-context";
import { spendNow } from "../create/controls/facts";
import { totalsOf, type Totals } from "../create/controls/totals";
import { recipientElsewhereOf } from "../create/create";
import { heldCreate } from "../create/pipeline";
import { currentPolicy } from "../db/policy";
import type { Runtime } from "../runtime";
import { fundsOf } from "../batches/facts";
import type { ApprovalRow } from "../db/approvals";
import { batchOfApproval, rowsOfBatch } from "../db/batches";
import { parentOfApproval } from "../db/parent-orders";
import { wholeOf } from "../parent-orders/create";
import type { ParentOrderAsked } from "@/lib/shared/parent-order";
import { loadApproval } from "./decisions";

/**
 * The approver's view beside a held create (lib/shared/approval-context.ts): read only, from the
 * same sources the controls weigh at send (the service's balances, the journal's totals, the
 * policy in force), so what the card shows is what the send will be checked against: for an
 * order that settles into another profile, the requester's transfers too. A TWAP parent order
 * reads as the controls weigh it: one order of its whole at its cap.
 */
export async function approvalContext(rt: Runtime, id: string): Promise<ApprovalContext> {
  const row = await loadApproval(rt, id);
  if (row.kind === "batch") return batchContext(rt, row);
  if (row.kind === "parent_order") return parentContext(rt, row);
  if (row.kind !== "order" && row.kind !== "transfer") return { spend: null, requester: null };
  const create = heldCreate(row);
  const own = { kind: create.kind, refId: row.ref_id };
  const email = row.requested_by;
  const now = new Date(rt.clock.now());
  const [spend, totals, transferTotals, policy] = await Promise.all([
    spendNow(rt, create),
    totalsOf(rt.db, { email, kind: create.kind, own }, now),
    recipientElsewhereOf(create) ? totalsOf(rt.db, { email, kind: "transfer", own }, now) : undefined,
    currentPolicy(rt.db),
  ]);
  const sends = sendsOf(row, policy);
  return {
    spend,
    requester: sends(create.kind, totals),
    ...(transferTotals && { requester_transfers: sends("transfer", transferTotals) }),
  };
}

/** The requester's sends of `kind` against their limits, as the card shows them. */
const sendsOf =
  (row: ApprovalRow, policy: Policy) =>
  (kind: CreateKind, t: Totals): RequesterSends => ({
    email: row.requested_by,
    kind,
    today_usd: t.today,
    daily_limit_usd: dailyLimitOf(policy.limits, kind),
    unapproved_24h_usd: t.unapproved24h,
    max_order_usd: kind === "order" ? (policy.limits.max_order_notional_usd[row.requested_role as Role] ?? null) : null,
  });

/**
 * A parent order's card, as an order's: what it would spend were it all to fill at its cap (its
 * whole, as the controls weigh it, lib/server/parent-orders/create.ts `wholeOf`), and the
 * requester's orders, this parent left out (its reservation and its ref_id).
 */
async function parentContext(rt: Runtime, row: ApprovalRow): Promise<ApprovalContext> {
  const create = wholeOf(JSON.parse(row.request_json) as ParentOrderAsked);
  const parent = await parentOfApproval(rt.db, row.id);
  const own = { kind: "order" as const, refId: row.ref_id };
  const now = new Date(rt.clock.now());
  const [spend, totals, policy] = await Promise.all([
    spendNow(rt, create),
    totalsOf(rt.db, { email: row.requested_by, kind: "order", own, ownParent: parent?.id }, now),
    currentPolicy(rt.db),
  ]);
  return { spend, requester: sendsOf(row, policy)("order", totals) };
}

/** A batch's card: each sending profile's funds against what the batch takes, and the requester's transfers (this batch left out). */
async function batchContext(rt: Runtime, row: ApprovalRow): Promise<ApprovalContext> {
  const batch = await batchOfApproval(rt.db, row.id);
  const rows = batch ? await rowsOfBatch(rt.db, batch.id) : [];
  const own = { kind: "transfer" as const, refId: row.ref_id };
  const now = new Date(rt.clock.now());
  const [funds, totals, policy] = await Promise.all([
    fundsOf(rt, rows),
    totalsOf(rt.db, { email: row.requested_by, kind: "transfer", own, ownBatch: batch?.id }, now),
    currentPolicy(rt.db),
  ]);
  return {
    spend: null,
    requester: sendsOf(row, policy)("transfer", totals),
    batch_funds: funds.map(({ missing: _missing, ...f }) => f),
  };
}
