import "server-only";
import { APPROVAL_STATUSES, type Approval, type ApprovalStatus } from "@/lib/shared/approval";
import { problem, ProblemError } from "@/lib/spec";
import { announced, approvalView, loadApproval, recordOutcome, type ApprovalRow } from "./store";
import type { SignedInUser } from "../auth/session";
import { sendApproved } from "../create/pipeline";
import { isUniqueViolation } from "../db";
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
 * policy change is applied. Either way the outcome is kept with the request.
 */

export { APPROVAL_STATUSES, type Approval, type ApprovalStatus };

export async function getApproval(rt: Runtime, id: string): Promise<Approval> {
  await expireDue(rt);
  return current(rt, id);
}

/** The request as it stands now, read again. */
const current = async (rt: Runtime, id: string) => approvalView(rt.db, await loadApproval(rt.db, id));

export async function listApprovals(rt: Runtime, status?: ApprovalStatus, limit = 200): Promise<Approval[]> {
  await expireDue(rt);
  let query = rt.db.selectFrom("approvals").selectAll();
  if (status) query = query.where("status", "=", status);
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return Promise.all(rows.map((row) => approvalView(rt.db, row)));
}

/** An approver's approval; the last one needed sends the request (or applies the policy). */
export async function approve(rt: Runtime, user: SignedInUser, id: string, ip: string | null): Promise<Approval> {
  const row = await decidable(rt, user, id, "approve", ip);
  try {
    await rt.db
      .insertInto("approval_votes")
      .values({
        approval_id: id,
        approver_email: user.email,
        approver_role: user.role,
        at: new Date(rt.clock.now()).toISOString(),
      })
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw conflict(`You have already approved this request.`);
  }
  await rt.audit.append({
    action: "approval.approved",
    actor: user,
    ip,
    subject: id,
    detail: { kind: row.kind, ref_id: row.ref_id },
  });
  const votes = await rt.db
    .selectFrom("approval_votes")
    .select("approver_email")
    .where("approval_id", "=", id)
    .execute();
  if (votes.length >= row.approvals_needed && (await decide(rt, id, "APPROVED", user.email, null))) {
    announced(rt, await current(rt, id));
    const outcome = row.kind === "policy" ? await applyApprovedPolicy(rt, row, user, ip) : await sendApproved(rt, row);
    await recordOutcome(rt.db, id, outcome);
  }
  return announced(rt, await current(rt, id));
}

export async function reject(rt: Runtime, user: SignedInUser, id: string, reason: string, ip: string | null) {
  const row = await decidable(rt, user, id, "reject", ip);
  await decideOr409(rt, id, "REJECTED", user.email, reason);
  await rt.audit.append({
    action: "approval.rejected",
    actor: user,
    ip,
    subject: id,
    detail: { kind: row.kind, ref_id: row.ref_id, reason },
  });
  return announced(rt, await current(rt, id));
}

/** The requester takes the request back before it is decided. */
export async function withdraw(rt: Runtime, user: SignedInUser, id: string, ip: string | null): Promise<Approval> {
  const row = await loadApproval(rt.db, id);
  if (row.requested_by !== user.email) {
    throw new ProblemError(problem(403, "Forbidden", "Only the person who asked for this request may withdraw it."));
  }
  await expireDue(rt);
  await decideOr409(rt, id, "WITHDRAWN", user.email, null);
  await rt.audit.append({
    action: "approval.withdrawn",
    actor: user,
    ip,
    subject: id,
    detail: { kind: row.kind, ref_id: row.ref_id },
  });
  return announced(rt, await current(rt, id));
}

/** Every PENDING request past its time becomes EXPIRED, once, and is audited. */
export async function expireDue(rt: Runtime, now = new Date(rt.clock.now())): Promise<number> {
  const due = await rt.db
    .selectFrom("approvals")
    .select(["id", "ref_id", "kind"])
    .where("status", "=", "PENDING")
    .where("expires_at", "<=", now.toISOString())
    .execute();
  let expired = 0;
  for (const { id, ref_id, kind } of due) {
    if (!(await decide(rt, id, "EXPIRED", null, null, now))) continue;
    expired++;
    await rt.audit.append({ action: "approval.expired", subject: id, detail: { kind, ref_id } });
    announced(rt, await current(rt, id));
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
  const row = await loadApproval(rt.db, id);
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
  const result = await rt.db
    .updateTable("approvals")
    .set({ status, decided_at: at.toISOString(), decided_by: by, reason })
    .where("id", "=", id)
    .where("status", "=", "PENDING")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** `decide`, or the 409 that says who decided it first. */
async function decideOr409(
  rt: Runtime,
  id: string,
  status: "REJECTED" | "WITHDRAWN",
  by: string,
  reason: string | null,
): Promise<void> {
  if (!(await decide(rt, id, status, by, reason))) throw conflict(alreadyDecided(await loadApproval(rt.db, id)));
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
