import "server-only";
import type { Kysely, Selectable } from "kysely";
import { v7 as timeOrderedId } from "uuid";
import type { Approval, ApprovalKind, ApprovalStatus, PolicyApprovalRule } from "@/lib/shared/approval";
import type { ApprovalRule, CreateKind } from "@/lib/shared/policy";
import { problem, ProblemError } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import type { Db } from "../db";
import { requestKey } from "../db/request-key";
import type { ApprovalTable, Database } from "../db/schema";
import type { Runtime } from "../runtime";

/**
 * The held requests as stored (table `approvals`): written by the create path's hold step and
 * by a policy change that loosens, decided by lib/server/approvals/decisions.ts, read by both. Kept apart
 * from the decisions so that the create path reads and writes them without importing the
 * module that sends an approved request.
 */

export type ApprovalRow = Selectable<ApprovalTable>;

/** A new request to hold, as the hold step or a policy change describes it. */
export interface NewApproval {
  kind: ApprovalKind;
  /** The create's ref_id; a policy change uses the approval's own id. */
  refId?: string;
  profileId: string;
  request: unknown;
  /** Null when no market prices it, and for a policy change. */
  valueUsd: string | null;
  rule: ApprovalRule | PolicyApprovalRule;
  holdReason?: string | null;
  /** The price guard the requester confirmed when asking. */
  priceGuard?: unknown;
  /** When it was asked for, on the runtime's clock: it expires `rule.open_minutes` later. */
  at: Date;
}

/** Inserts a PENDING request; `db` may be the person's locked transaction. Throws on a taken ref_id. */
export async function insertApproval(
  db: Kysely<Database>,
  user: SignedInUser,
  hold: NewApproval,
): Promise<ApprovalRow> {
  const now = hold.at;
  const id = timeOrderedId();
  const row: ApprovalRow = {
    id,
    kind: hold.kind,
    ref_id: hold.refId ?? id,
    profile_id: hold.profileId,
    request_json: JSON.stringify(hold.request),
    value_usd: hold.valueUsd ?? "",
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
    hold_reason: hold.holdReason ?? null,
    price_guard_json: hold.priceGuard ? JSON.stringify(hold.priceGuard) : null,
  };
  await db.insertInto("approvals").values(row).execute();
  return row;
}

export async function loadApproval(db: Db, id: string): Promise<ApprovalRow> {
  const row = await db.selectFrom("approvals").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new ProblemError(problem(404, "Not Found", `There is no approval request ${id}.`));
  return row;
}

/** The request a held ref_id made, if it was held. */
export async function approvalRowOfRef(
  db: Kysely<Database>,
  kind: CreateKind,
  refId: string,
): Promise<ApprovalRow | undefined> {
  return db.selectFrom("approvals").selectAll().where("kind", "=", kind).where("ref_id", "=", refId).executeTakeFirst();
}

/**
 * This person's held requests since `since` that repeat `request` (apart from its ref_id) and may
 * still be sent (PENDING or APPROVED): for the repeat question, which reads the journal for the rest.
 */
export async function heldRepeatsSince(
  db: Db,
  filter: { kind: CreateKind; userEmail: string; profileId: string; request: unknown; since: Date },
): Promise<{ ref_id: string; created_at: string }[]> {
  const rows = await db
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

/** A request as GET /api/approvals answers it: the row, its approvals so far. */
export async function approvalView(db: Db, row: ApprovalRow): Promise<Approval> {
  const votes = await db
    .selectFrom("approval_votes")
    .selectAll()
    .where("approval_id", "=", row.id)
    .orderBy("at")
    .execute();
  return {
    id: row.id,
    status: row.status as ApprovalStatus,
    kind: row.kind as ApprovalKind,
    request: JSON.parse(row.request_json) as Record<string, unknown>,
    profile_id: row.profile_id,
    value_usd: row.value_usd === "" ? null : row.value_usd,
    rule: JSON.parse(row.rule_json) as ApprovalRule | PolicyApprovalRule,
    hold_reason: row.hold_reason,
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

/** An approval's new state, pushed to every open screen (GET /api/events, event `approval`). */
export function announced(rt: Runtime, approval: Approval): Approval {
  rt.live.publish({ name: "approval", data: approval });
  return approval;
}

/** Keeps what sending an approved request came to: the service's answer, or the refusal at send. */
export async function recordOutcome(db: Db, id: string, outcome: { status: number; body: unknown }): Promise<void> {
  await db
    .updateTable("approvals")
    .set({ outcome_json: JSON.stringify(outcome) })
    .where("id", "=", id)
    .execute();
}
