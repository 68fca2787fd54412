import "server-only";
import { isOpenParent, type ParentOrder, type ParentOrderStatus } from "@/lib/shared/parent-order";
import { problem, ProblemError } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { approvalRowOf, approvalView, decideApproval } from "../db/approvals";
import {
  closeScheduled,
  listParents,
  moveParent,
  parentOfId,
  shiftSchedule,
  type ParentRecord,
} from "../db/parent-orders";
import type { Runtime } from "../runtime";
import { announceParent, kickParents } from "./scheduler";
import { parentView, parentViews } from "./view";

/**
 * Reading a parent order, and its requester's (or an admin's) pause, resume and cancel. Each moves
 * the parent only from the states it names, so two people acting at once get one move and a 409:
 * - pause: WORKING → PAUSED. No child is sent while paused; its reservation stays (it may resume);
 * - resume: PAUSED → WORKING. What is still scheduled moves on by the time it was paused, so the
 *   slices keep their spacing and no burst makes up for the pause;
 * - cancel: AWAITING_APPROVAL, WORKING or PAUSED → CANCELLED. What is still scheduled is skipped,
 *   the reservation shrinks to what was filled, and a request for approval is withdrawn with it.
 *   A child in flight finishes: it may already be at the service, and its fill is counted.
 * All are audited and pushed to every open screen.
 */

const notFound = (id: string) => new ProblemError(problem(404, "Not Found", `No parent order has id ${id}.`));

/** GET /api/parent-orders/{id}. */
export async function getParentOrder(rt: Runtime, id: string): Promise<ParentOrder> {
  const parent = await parentOfId(rt.db, id);
  if (!parent) throw notFound(id);
  return parentView(rt, parent);
}

/** GET /api/parent-orders: the newest first. */
export async function recentParentOrders(rt: Runtime, limit = 50): Promise<ParentOrder[]> {
  return parentViews(rt, await listParents(rt.db, limit));
}

type Action = "pause" | "resume" | "cancel";

const MOVES: Record<Action, { from: ParentOrderStatus[]; to: ParentOrderStatus }> = {
  pause: { from: ["WORKING"], to: "PAUSED" },
  resume: { from: ["PAUSED"], to: "WORKING" },
  cancel: { from: ["AWAITING_APPROVAL", "WORKING", "PAUSED"], to: "CANCELLED" },
};

/** POST /api/parent-orders/{id}/pause|resume|cancel. */
export async function actOnParent(
  rt: Runtime,
  user: SignedInUser,
  id: string,
  action: Action,
  ip: string | null,
): Promise<ParentOrder> {
  const parent = await parentOfId(rt.db, id);
  if (!parent) throw notFound(id);
  if (parent.requested_by !== user.email && user.role !== "admin") {
    throw new ProblemError(
      problem(403, "Forbidden", `Only the parent order's requester or an admin may ${action} it.`),
    );
  }
  const { from, to } = MOVES[action];
  const at = new Date(rt.clock.now());
  const extra =
    action === "pause"
      ? { paused_at: at.toISOString() }
      : action === "resume"
        ? { paused_at: null }
        : { cancelled_by: user.email, paused_at: null };
  if (!(await moveParent(rt.db, id, from, to, at, extra))) {
    const now = ((await parentOfId(rt.db, id))?.status ?? parent.status) as ParentOrderStatus;
    throw new ProblemError(problem(409, "Conflict", conflictDetail(action, now), { status: now }));
  }
  const detail = await afterMove(rt, user, parent, action, at);
  await rt.audit.append({
    action: `parent_order.${action === "cancel" ? "cancelled" : action === "pause" ? "paused" : "resumed"}`,
    actor: user,
    ip,
    subject: parent.ref_id,
    detail: { parent_order_id: id, ...detail },
  });
  await announceParent(rt, id);
  kickParents(rt);
  return getParentOrder(rt, id);
}

async function afterMove(rt: Runtime, user: SignedInUser, parent: ParentRecord, action: Action, at: Date) {
  if (action === "resume" && parent.paused_at) {
    const pausedMs = Math.max(0, at.getTime() - Date.parse(parent.paused_at));
    await shiftSchedule(rt.db, parent, pausedMs);
    return { paused_ms: pausedMs };
  }
  if (action !== "cancel") return {};
  const skipped = await closeScheduled(rt.db, parent.id, "SKIPPED");
  // A parent cancelled while it waited takes its request for approval with it.
  if (parent.approval_id && parent.status === "AWAITING_APPROVAL") await withdrawnWith(rt, parent.approval_id, user);
  return { skipped, was: parent.status };
}

function conflictDetail(action: Action, status: ParentOrderStatus): string {
  if (action === "cancel" || !isOpenParent(status))
    return `The parent order is ${status}: there is nothing left to ${action}.`;
  return action === "pause"
    ? `The parent order is ${status}: only a working parent order can be paused.`
    : `The parent order is ${status}: only a paused parent order can be resumed.`;
}

async function withdrawnWith(rt: Runtime, approvalId: string, user: SignedInUser): Promise<void> {
  const at = new Date(rt.clock.now());
  const reason = "The parent order was cancelled.";
  if (!(await decideApproval(rt.db, approvalId, { status: "WITHDRAWN", by: user.email, reason, at }))) return;
  const row = await approvalRowOf(rt.db, approvalId);
  if (row) rt.live.publish({ name: "approval", data: await approvalView(rt.db, row) });
}
