import "server-only";
import { APPROVAL_STATUSES, type Approval, type ApprovalStatus } from "@/lib/shared/approval";
import { problem, ProblemError } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { endHeldBatch, sendApprovedBatch } from "../batches/decided";
import { sendApproved } from "../create/pipeline";
import { endHeldParent, startApprovedParent } from "../parent-orders/decided";
import {
  addVote,
  approvalPage,
  approvalRowOf,
  approvalView,
  decideApproval,
  dueToExpire,
  recordOutcome,
  voteCount,
  type ApprovalRow,
} from "../db/approvals";
import { log } from "../ops/log";
import { applyApprovedPolicy } from "./policy-updates";
import type { Runtime } from "../runtime";

/**
 * Four eyes: a request held for approval (a create, or a policy change that loosens the
 * controls) is decided here. Approvers other than the requester approve it or reject it with a
 * reason; the requester may withdraw it; past its time it expires. When the last approval
 * lands, a create is sent through the create path's controls again (lib/server/create/pipeline.ts,
 * sendApproved: today's policy, prices, the requester's role and funds), once however many
 * approvals arrive at the same instant: only one caller moves it from PENDING to APPROVED. A
 * policy change is applied; a batch starts sending (lib/server/batches/decided.ts), a parent
 * order starts (lib/server/parent-orders/decided.ts), and one that will not be sent ends with its request. Either way the outcome is kept with the request. What is stored
 * is read and written through lib/server/db/approvals.ts; this module decides.
 */

export { APPROVAL_STATUSES, type Approval, type ApprovalStatus };

export async function getApproval(rt: Runtime, id: string): Promise<Approval> {
  await expireDue(rt);
  return current(rt, id);
}

/** The request, or the 404 that says there is none. */
export async function loadApproval(rt: Runtime, id: string): Promise<ApprovalRow> {
  const row = await approvalRowOf(rt.db, id);
  if (!row) throw new ProblemError(problem(404, "Not Found", `There is no approval request ${id}.`));
  return row;
}

/** The request as it stands now, read again. */
const current = async (rt: Runtime, id: string) => approvalView(rt.db, await loadApproval(rt, id));

/** The request as it stands now, pushed to every open screen (GET /api/events, event `approval`). */
async function announce(rt: Runtime, id: string): Promise<Approval> {
  const approval = await current(rt, id);
  rt.live.publish({ name: "approval", data: approval });
  return approval;
}

/** A page of requests, newest first: at most three queries (the expiry sweep's, the page's, its approvals'). */
export async function listApprovals(rt: Runtime, status?: ApprovalStatus, limit = 200): Promise<Approval[]> {
  await expireDue(rt);
  return approvalPage(rt.db, { status, limit });
}

/** An approver's approval; the last one needed sends the request (or applies the policy). */
export async function approve(rt: Runtime, user: SignedInUser, id: string, ip: string | null): Promise<Approval> {
  const row = await decidable(rt, user, id, "approve", ip);
  if (!(await addVote(rt.db, id, user, new Date(rt.clock.now())))) {
    throw conflict(`You have already approved this request.`);
  }
  await rt.audit.append({
    action: "approval.approved",
    actor: user,
    ip,
    subject: id,
    detail: { kind: row.kind, ref_id: row.ref_id },
  });
  if ((await voteCount(rt.db, id)) >= row.approvals_needed && (await decide(rt, id, "APPROVED", user.email, null))) {
    await announce(rt, id);
    const outcome =
      row.kind === "policy"
        ? await applyApprovedPolicy(rt, row, user, ip)
        : row.kind === "batch"
          ? await sendApprovedBatch(rt, row)
          : row.kind === "parent_order"
            ? await startApprovedParent(rt, row)
            : await sendApproved(rt, row);
    await recordOutcome(rt.db, id, outcome);
  }
  return announce(rt, id);
}

export async function reject(rt: Runtime, user: SignedInUser, id: string, reason: string, ip: string | null) {
  const row = await decidable(rt, user, id, "reject", ip);
  await decideOr409(rt, id, "REJECTED", user.email, reason);
  if (row.kind === "batch") await endHeldBatch(rt, row, "REJECTED");
  if (row.kind === "parent_order") await endHeldParent(rt, row, "REJECTED");
  await rt.audit.append({
    action: "approval.rejected",
    actor: user,
    ip,
    subject: id,
    detail: { kind: row.kind, ref_id: row.ref_id, reason },
  });
  return announce(rt, id);
}

/** The requester takes the request back before it is decided. */
export async function withdraw(rt: Runtime, user: SignedInUser, id: string, ip: string | null): Promise<Approval> {
  const row = await loadApproval(rt, id);
  if (row.requested_by !== user.email) {
    throw new ProblemError(problem(403, "Forbidden", "Only the person who asked for this request may withdraw it."));
  }
  await expireDue(rt);
  await decideOr409(rt, id, "WITHDRAWN", user.email, null);
  if (row.kind === "batch") await endHeldBatch(rt, row, "CANCELLED");
  if (row.kind === "parent_order") await endHeldParent(rt, row, "CANCELLED");
  await rt.audit.append({
    action: "approval.withdrawn",
    actor: user,
    ip,
    subject: id,
    detail: { kind: row.kind, ref_id: row.ref_id },
  });
  return announce(rt, id);
}

/** Every PENDING request past its time becomes EXPIRED, once, and is audited. */
export async function expireDue(rt: Runtime, now = new Date(rt.clock.now())): Promise<number> {
  const due = await dueToExpire(rt.db, now);
  let expired = 0;
  for (const { id, ref_id, kind } of due) {
    if (!(await decide(rt, id, "EXPIRED", null, null, now))) continue;
    expired++;
    if (kind === "batch") await endHeldBatch(rt, { id }, "EXPIRED");
    if (kind === "parent_order") await endHeldParent(rt, { id }, "EXPIRED");
    await rt.audit.append({ action: "approval.expired", subject: id, detail: { kind, ref_id } });
    await announce(rt, id);
  }
  return expired;
}

/**
 * The request, PENDING and not the asker's own: or the 403, 404 or 409 that says why not. An
 * attempt to decide one's own request is refused and recorded (`approval.self_refused`).
 */
async function decidable(
  rt: Runtime,
  user: SignedInUser,
  id: string,
  verb: "approve" | "reject",
  ip: string | null,
): Promise<ApprovalRow> {
  await expireDue(rt);
  const row = await loadApproval(rt, id);
  if (row.requested_by === user.email) {
    await rt.audit.append({
      action: "approval.self_refused",
      actor: user,
      ip,
      subject: id,
      detail: { kind: row.kind, ref_id: row.ref_id, verb },
    });
    throw new ProblemError(
      problem(403, "Forbidden", `You asked for this request, so you may not ${verb} it: another approver must.`, {
        requested_by: row.requested_by,
      }),
    );
  }
  if (row.status !== "PENDING") throw conflict(alreadyDecided(row));
  return row;
}

/** Moves a PENDING request to `status`; false when someone else decided it first. */
async function decide(
  rt: Runtime,
  id: string,
  status: Exclude<ApprovalStatus, "PENDING">,
  by: string | null,
  reason: string | null,
  at = new Date(rt.clock.now()),
): Promise<boolean> {
  return decideApproval(rt.db, id, { status, by, reason, at });
}

/** `decide`, or the 409 that says who decided it first. */
async function decideOr409(
  rt: Runtime,
  id: string,
  status: "REJECTED" | "WITHDRAWN",
  by: string,
  reason: string | null,
): Promise<void> {
  if (!(await decide(rt, id, status, by, reason))) throw conflict(alreadyDecided(await loadApproval(rt, id)));
}

const conflict = (detail: string) => new ProblemError(problem(409, "Conflict", detail));

const alreadyDecided = (row: ApprovalRow) =>
  row.status === "EXPIRED"
    ? "This request expired: it can no longer be decided."
    : `This request is already ${row.status.toLowerCase()}: it can no longer be decided.`;

/**
 * Expires due requests every `everyMs` on the runtime's clock, so their EXPIRED state and audit
 * entry come on time; until the runtime stops (none once a shutdown began; one under way is
 * waited for, as it writes to the database).
 */
export function expireInBackground(rt: Runtime, everyMs = 30_000): void {
  const stop = rt.clock.every(everyMs, () => {
    if (rt.lifecycle.stopping) return;
    rt.lifecycle
      .track(expireDue(rt))
      .catch((error: unknown) => log.error({ err: error }, "approvals: expiry sweep failed"));
  });
  rt.lifecycle.signal.addEventListener("abort", stop, { once: true });
}
