import "server-only";
import type { PriceGuard } from "@/lib/shared/price-guard";
import type { ParentOrderAsked } from "@/lib/shared/parent-order";
import type { Role } from "@/lib/shared/roles";
import { problem, type Problem } from "@/lib/spec";
import { readFacts, readFunds } from "../create/controls/facts";
import { totalsOf } from "../create/controls/totals";
import { verdictOf } from "../create/controls/verdict";
import type { ApprovalRow } from "../db/approvals";
import { closeScheduled, moveParent, parentOfApproval } from "../db/parent-orders";
import { inPersonLock } from "../db/person-lock";
import type { Runtime } from "../runtime";
import { startSchedule, wholeOf } from "./create";
import { getParentOrder } from "./actions";
import { announceParent, kickParents } from "./scheduler";

/**
 * A parent order's approval decided (lib/server/approvals/decisions.ts). Approved: the parent is
 * weighed again as every approved request is (the requester's role now, their largest order and
 * daily limit with today's totals, the price guard against what they confirmed, the funds), then
 * it starts: its slices are scheduled from now. Refused at that check, rejected, withdrawn or
 * expired: it ends (REJECTED, CANCELLED or EXPIRED) and no child is sent.
 */
export async function startApprovedParent(
  rt: Runtime,
  approval: ApprovalRow,
): Promise<{ status: number; body: unknown; sent: boolean }> {
  const parent = await parentOfApproval(rt.db, approval.id);
  if (!parent) throw new Error(`approval ${approval.id} holds no parent order`);
  const asked = JSON.parse(parent.request_json) as ParentOrderAsked;
  const create = wholeOf(asked);
  const role = approval.requested_role as Role;
  const [facts, funds] = await Promise.all([readFacts(rt, create, role, parent.requested_by), readFunds(rt, create)]);
  const guardConfirmed = approval.price_guard_json ? (JSON.parse(approval.price_guard_json) as PriceGuard) : null;
  const step = await inPersonLock(rt.db, parent.requested_by, async (tx) => {
    const now = new Date(rt.clock.now());
    const own = { kind: "order" as const, refId: parent.ref_id };
    const totals = await totalsOf(tx, { email: parent.requested_by, kind: "order", own, ownParent: parent.id }, now);
    const verdict = verdictOf({
      create,
      facts: { ...facts, funds },
      totals,
      approved: { id: approval.id, guardConfirmed },
    });
    if ("refuse" in verdict) return verdict;
    if (!(await moveParent(tx, parent.id, ["AWAITING_APPROVAL"], "WORKING", now))) {
      return {
        refuse: {
          problem: problem(409, "Conflict", "The parent order was cancelled before it was approved: nothing was sent."),
        },
      };
    }
    await startSchedule(tx, parent, now, facts.quote?.mid ?? null);
    return verdict;
  });
  if ("refuse" in step) {
    await endHeldParent(rt, approval, "REJECTED");
    await rt.audit.append({
      action: "approval.send_refused",
      actor: { email: approval.requested_by, role: approval.requested_role },
      subject: approval.id,
      detail: { kind: "parent_order", ref_id: parent.ref_id, problem: step.refuse.problem },
    });
    return refused(step.refuse.problem);
  }
  await announceParent(rt, parent.id);
  kickParents(rt);
  return { status: 201, body: { parent_order: await getParentOrder(rt, parent.id) }, sent: true };
}

const refused = (p: Problem) => ({ status: p.status, body: p, sent: false });

/** The parent of an approval that will not start: it ends with the approval's fate, its slices skipped. */
export async function endHeldParent(
  rt: Runtime,
  approval: Pick<ApprovalRow, "id">,
  status: "REJECTED" | "CANCELLED" | "EXPIRED",
): Promise<void> {
  const parent = await parentOfApproval(rt.db, approval.id);
  if (!parent) return;
  if (!(await moveParent(rt.db, parent.id, ["AWAITING_APPROVAL"], status, new Date(rt.clock.now())))) return;
  await closeScheduled(rt.db, parent.id, "SKIPPED");
  await announceParent(rt, parent.id);
}
