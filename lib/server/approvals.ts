import "server-only";
import type { Selectable } from "kysely";
import { v7 as timeOrderedId } from "uuid";
import { APPROVAL_STATUSES, type Approval, type ApprovalStatus } from "@/lib/approval";
import type { ApprovalRule, CreateKind } from "@/lib/policy";
import { problem, ProblemError } from "@/lib/spec";
import type { SignedInUser } from "./auth/session";
import { createOnce, createSpecOf } from "./creates";
import { isUniqueViolation } from "./db";
import { requestKey } from "./db/request-key";
import type { ApprovalTable } from "./db/schema";
import { log } from "./log";
import type { Runtime } from "./runtime";

/**
 * Four eyes: a create that needs approval is held here, not sent. Approvers other than the
 * requester approve it or reject it with a reason; the requester may withdraw it; past its
 * time it expires. When the last approval lands, the request is sent through the same
 * journaled create with the same ref_id, once however many approvals arrive at the same instant:
 * only one caller moves it from PENDING to APPROVED, and the journal's unique ref_id backs that.
 */

export { APPROVAL_STATUSES, type Approval, type ApprovalStatus };

export interface HoldRequest {
  kind: CreateKind;
  profileId: string;
  body: Record<string, unknown> & { ref_id: string };
  valueUsd: string;
  rule: ApprovalRule;
  /** The earlier create this one repeats, when the person confirmed asking again (for the audit trail). */
  duplicateOf?: string | null;
}

type Row = Selectable<ApprovalTable>;

/** Holds a create for approval: a new PENDING request, or the one this ref_id already made. */
export async function requestApproval(rt: Runtime, user: SignedInUser, hold: HoldRequest, ip: string | null) {
  const now = new Date();
  const row: Row = {
    id: timeOrderedId(),
    kind: hold.kind,
    ref_id: hold.body.ref_id,
    profile_id: hold.profileId,
    request_json: JSON.stringify(hold.body),
    value_usd: hold.valueUsd,
    rule_json: JSON.stringify(hold.rule),
    approvals_needed: hold.rule.approvals_needed,
    requested_by: user.email,
    requested_role: user.role,
    requested_name: user.name,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + hold.rule.open_minutes * 60_000).toISOString(),
    status: "PENDING",
    decided_at: null,
    decided_by: null,
    reason: null,
    outcome_json: null,
  };
  try {
    await rt.db.insertInto("approvals").values(row).execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The same ref_id asked again (a retry): the request it already made stands.
    const existing = await rt.db
      .selectFrom("approvals")
      .selectAll()
      .where("kind", "=", hold.kind)
      .where("ref_id", "=", hold.body.ref_id)
      .executeTakeFirstOrThrow();
    return view(rt, existing);
  }
  await rt.audit.append({
    action: "approval.requested",
    actor: user,
    ip,
    subject: row.id,
    detail: {
      kind: row.kind,
      ref_id: row.ref_id,
      request: hold.body,
      value_usd: row.value_usd,
      rule: hold.rule,
      ...(hold.duplicateOf ? { duplicate_of: hold.duplicateOf } : {}),
    },
  });
  return announced(rt, await view(rt, row));
}

/** The approval a held ref_id asked for, if it was held. */
export async function approvalOfRef(rt: Runtime, kind: CreateKind, refId: string): Promise<Approval | undefined> {
  const row = await rt.db
    .selectFrom("approvals")
    .select("id")
    .where("kind", "=", kind)
    .where("ref_id", "=", refId)
    .executeTakeFirst();
  return row && getApproval(rt, row.id);
}

/**
 * This person's held requests since `since` that repeat `request` (apart from its ref_id) and may
 * still be sent (PENDING or APPROVED): for the duplicate check, which reads the journal for the rest.
 */
export async function heldRepeatsSince(
  rt: Runtime,
  filter: { kind: CreateKind; userEmail: string; profileId: string; request: unknown; since: Date },
): Promise<{ ref_id: string; created_at: string }[]> {
  const rows = await rt.db
    .selectFrom("approvals")
    .select(["ref_id", "created_at", "request_json"])
    .where("requested_by", "=", filter.userEmail)
    .where("created_at", ">=", filter.since.toISOString())
    .where("kind", "=", filter.kind)
    .where("profile_id", "=", filter.profileId)
    .where("status", "in", ["PENDING", "APPROVED"])
    .execute();
  // A person holds few requests a minute: compared here rather than indexed.
  const key = requestKey(filter.request);
  return rows.filter((r) => requestKey(JSON.parse(r.request_json)) === key);
}

export async function getApproval(rt: Runtime, id: string): Promise<Approval> {
  await expireDue(rt);
  return view(rt, await load(rt, id));
}

export async function listApprovals(rt: Runtime, status?: ApprovalStatus, limit = 200): Promise<Approval[]> {
  await expireDue(rt);
  let query = rt.db.selectFrom("approvals").selectAll();
  if (status) query = query.where("status", "=", status);
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return Promise.all(rows.map((row) => view(rt, row)));
}

/** An approver's approval; the last one needed sends the request. */
export async function approve(rt: Runtime, user: SignedInUser, id: string, ip: string | null): Promise<Approval> {
  const row = await decidable(rt, user, id, "approve");
  try {
    await rt.db
      .insertInto("approval_votes")
      .values({ approval_id: id, approver_email: user.email, approver_role: user.role, at: new Date().toISOString() })
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw conflict(`You have already approved this request.`);
  }
  await rt.audit.append({ action: "approval.approved", actor: user, ip, subject: id, detail: { ref_id: row.ref_id } });
  const votes = await rt.db
    .selectFrom("approval_votes")
    .select("approver_email")
    .where("approval_id", "=", id)
    .execute();
  if (votes.length >= row.approvals_needed && (await decide(rt, id, "APPROVED", user.email, null))) {
    announced(rt, await view(rt, await load(rt, id)));
    // send() announces it again, with the service's answer.
    await send(rt, row);
    return view(rt, await load(rt, id));
  }
  return announced(rt, await view(rt, await load(rt, id)));
}

export async function reject(rt: Runtime, user: SignedInUser, id: string, reason: string, ip: string | null) {
  const row = await decidable(rt, user, id, "reject");
  if (!(await decide(rt, id, "REJECTED", user.email, reason))) throw conflict(alreadyDecided(await load(rt, id)));
  await rt.audit.append({
    action: "approval.rejected",
    actor: user,
    ip,
    subject: id,
    detail: { ref_id: row.ref_id, reason },
  });
  return announced(rt, await view(rt, await load(rt, id)));
}

/** The requester takes the request back before it is decided. */
export async function withdraw(rt: Runtime, user: SignedInUser, id: string, ip: string | null): Promise<Approval> {
  const row = await load(rt, id);
  if (row.requested_by !== user.email) {
    throw new ProblemError(problem(403, "Forbidden", "Only the person who asked for this request may withdraw it."));
  }
  await expireDue(rt);
  if (!(await decide(rt, id, "WITHDRAWN", user.email, null))) throw conflict(alreadyDecided(await load(rt, id)));
  await rt.audit.append({ action: "approval.withdrawn", actor: user, ip, subject: id, detail: { ref_id: row.ref_id } });
  return announced(rt, await view(rt, await load(rt, id)));
}

/** Every PENDING request past its time becomes EXPIRED, once, and is audited. */
export async function expireDue(rt: Runtime, now = new Date()): Promise<number> {
  const due = await rt.db
    .selectFrom("approvals")
    .select(["id", "ref_id"])
    .where("status", "=", "PENDING")
    .where("expires_at", "<=", now.toISOString())
    .execute();
  let expired = 0;
  for (const { id, ref_id } of due) {
    if (!(await decide(rt, id, "EXPIRED", null, null, now))) continue;
    expired++;
    await rt.audit.append({ action: "approval.expired", subject: id, detail: { ref_id } });
    announced(rt, await view(rt, await load(rt, id)));
  }
  return expired;
}

/** The request, PENDING and not the asker's own: or the 403, 404 or 409 that says why not. */
async function decidable(rt: Runtime, user: SignedInUser, id: string, verb: "approve" | "reject") {
  await expireDue(rt);
  const row = await load(rt, id);
  if (row.requested_by === user.email) {
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
  at = new Date(),
): Promise<boolean> {
  const result = await rt.db
    .updateTable("approvals")
    .set({ status, decided_at: at.toISOString(), decided_by: by, reason })
    .where("id", "=", id)
    .where("status", "=", "PENDING")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Sends an approved request as its requester asked it, with its ref_id, and keeps the answer. */
async function send(rt: Runtime, row: Row): Promise<void> {
  const requester: SignedInUser = {
    email: row.requested_by,
    name: row.requested_name,
    role: row.requested_role as SignedInUser["role"],
  };
  const body = JSON.parse(row.request_json) as Record<string, unknown> & { ref_id: string };
  const outcome = await createOnce(rt, requester, createSpecOf(row.kind as CreateKind, row.profile_id, body));
  await rt.db
    .updateTable("approvals")
    .set({ outcome_json: JSON.stringify(outcome) })
    .where("id", "=", row.id)
    .execute();
  announced(rt, await view(rt, await load(rt, row.id)));
}

/** An approval's new state, pushed to every open screen (GET /api/events, event `approval`). */
function announced(rt: Runtime, approval: Approval): Approval {
  rt.live.publish({ name: "approval", data: approval });
  return approval;
}

async function load(rt: Runtime, id: string): Promise<Row> {
  const row = await rt.db.selectFrom("approvals").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new ProblemError(problem(404, "Not Found", `There is no approval request ${id}.`));
  return row;
}

const conflict = (detail: string) => new ProblemError(problem(409, "Conflict", detail));

const alreadyDecided = (row: Row) =>
  row.status === "EXPIRED"
    ? "This request expired: it can no longer be decided."
    : `This request is already ${row.status.toLowerCase()}: it can no longer be decided.`;

async function view(rt: Runtime, row: Row): Promise<Approval> {
  const votes = await rt.db
    .selectFrom("approval_votes")
    .selectAll()
    .where("approval_id", "=", row.id)
    .orderBy("at")
    .execute();
  return {
    id: row.id,
    status: row.status as ApprovalStatus,
    kind: row.kind as CreateKind,
    request: JSON.parse(row.request_json) as Record<string, unknown>,
    profile_id: row.profile_id,
    value_usd: row.value_usd,
    rule: JSON.parse(row.rule_json) as ApprovalRule,
    requested_by: row.requested_by,
    requested_name: row.requested_name,
    requested_role: row.requested_role,
    created_at: row.created_at,
    expires_at: row.expires_at,
    approvals_needed: Number(row.approvals_needed),
    approvals: votes.map((v) => ({ by: v.approver_email, role: v.approver_role, at: v.at })),
    decided_at: row.decided_at,
    decided_by: row.decided_by,
    reason: row.reason,
    outcome: row.outcome_json ? (JSON.parse(row.outcome_json) as Approval["outcome"]) : null,
  };
}

/** Expires due requests every `everyMs`, so their EXPIRED state and audit entry come on time. */
export function expireInBackground(rt: Runtime, everyMs = 30_000): void {
  setInterval(() => {
    // None once a shutdown began; one under way is waited for (it writes to the database).
    if (rt.lifecycle.stopping) return;
    rt.lifecycle
      .track(expireDue(rt))
      .catch((error: unknown) => log.error({ err: error }, "approvals: expiry sweep failed"));
  }, everyMs).unref();
}
