import "server-only";
import type { Kysely, Selectable } from "kysely";
import { v7 as timeOrderedId } from "uuid";
import type { Approval, ApprovalKind, ApprovalStatus, PolicyApprovalRule } from "@/lib/shared/approval";
import type { ApprovalEventData } from "@/lib/shared/event-data";
import type { ApprovalRule, CreateKind } from "@/lib/shared/policy";
import { isUniqueViolation, type Db } from "./index";
import { recordEvent } from "./outbox";
import { requestKey } from "./request-key";
import type { ApprovalTable, Database } from "./schema";
import { isTransferValue, mayBeTransferValue } from "./transfer-value";

/**
 * The held requests (table `approvals`) and the approvals each has so far (`approval_votes`):
 * every query on either. Below both of their users: the create path holds requests and binds
 * ref_ids against them (lib/server/create), and lib/server/approvals decides them; neither
 * imports the other for these. No HTTP here: "not found" is undefined, "already" is false.
 */

export type ApprovalRow = Selectable<ApprovalTable>;

/** Who asks: the signed-in person. */
export interface Requester {
  email: string;
  name: string;
  role: string;
}

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

/**
 * Inserts a PENDING request with its `approval.requested` event: pass a transaction (the person's
 * locked one), so both are written or neither. Throws on a taken ref_id.
 */
export async function insertApproval(
  db: Kysely<Database>,
  requester: Requester,
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
    requested_by: requester.email,
    requested_role: requester.role,
    requested_name: requester.name,
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
  const data: ApprovalEventData = { approval: toApproval(row, []) };
  await recordEvent(db, { type: "approval.requested", at: now, data });
  return row;
}

export const approvalRowOf = (db: Db, id: string): Promise<ApprovalRow | undefined> =>
  db.selectFrom("approvals").selectAll().where("id", "=", id).executeTakeFirst();

/** The request a held ref_id made, if it was held. */
export const approvalRowOfRef = (
  db: Kysely<Database>,
  kind: CreateKind,
  refId: string,
): Promise<ApprovalRow | undefined> =>
  db.selectFrom("approvals").selectAll().where("kind", "=", kind).where("ref_id", "=", refId).executeTakeFirst();

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

/**
 * The USD values this person's requests of `kind` hold back for the daily limit: waiting, or
 * approved and not yet journaled by their send. For transfers, a held order that settles into
 * another profile counts too (transfer-value.ts). `own`, the create being weighed, is left out.
 */
export async function waitingValuesOf(
  db: Kysely<Database>,
  who: { email: string; kind: CreateKind; own: { kind: CreateKind; refId: string } },
): Promise<string[]> {
  const query = db
    .selectFrom("approvals")
    .select(["value_usd", "kind", "profile_id", "request_json"])
    .where("requested_by", "=", who.email)
    .where((eb) => eb.not(eb.and([eb("kind", "=", who.own.kind), eb("ref_id", "=", who.own.refId)])))
    .where((eb) =>
      eb.or([
        eb("status", "=", "PENDING"),
        eb.and([
          eb("status", "=", "APPROVED"),
          eb("outcome_json", "is", null),
          eb.not(
            eb.exists(
              eb
                .selectFrom("journal")
                .select("journal.id")
                .whereRef("journal.kind", "=", "approvals.kind")
                .whereRef("journal.ref_id", "=", "approvals.ref_id"),
            ),
          ),
        ]),
      ]),
    );
  const rows =
    who.kind === "order"
      ? await query.where("kind", "=", "order").execute()
      : (await query.where(mayBeTransferValue).execute()).filter(isTransferValue);
  return rows.map((r) => r.value_usd);
}

/** Requests, newest first, with their approvals: two queries whatever the page's size. */
export async function approvalPage(db: Db, filter: { status?: ApprovalStatus; limit: number }): Promise<Approval[]> {
  let query = db.selectFrom("approvals").selectAll();
  if (filter.status) query = query.where("status", "=", filter.status);
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(filter.limit).execute();
  return approvalViews(db, rows);
}

/** A request as GET /api/approvals answers it: the row, its approvals so far. */
export async function approvalView(db: Db, row: ApprovalRow): Promise<Approval> {
  const [view] = await approvalViews(db, [row]);
  return view!;
}

async function approvalViews(db: Db, rows: ApprovalRow[]): Promise<Approval[]> {
  const votes = await votesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toApproval(row, votes.get(row.id) ?? []));
}

export type Vote = Approval["approvals"][number];

/** The approvals of these requests, each request's in the order they came: one query. */
export async function votesOf(db: Db, ids: readonly string[]): Promise<Map<string, Vote[]>> {
  const byId = new Map<string, Vote[]>();
  if (ids.length === 0) return byId;
  const rows = await db
    .selectFrom("approval_votes")
    .selectAll()
    .where("approval_id", "in", [...ids])
    .orderBy("at")
    .execute();
  for (const v of rows) {
    const list = byId.get(v.approval_id) ?? [];
    list.push({ by: v.approver_email, role: v.approver_role, at: v.at });
    byId.set(v.approval_id, list);
  }
  return byId;
}

function toApproval(row: ApprovalRow, votes: Vote[]): Approval {
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
    approvals: votes,
    decided_at: row.decided_at,
    decided_by: row.decided_by,
    reason: row.reason,
    outcome: row.outcome_json ? (JSON.parse(row.outcome_json) as Approval["outcome"]) : null,
  };
}

/**
 * The creates of `kind` waiting for approval at `now`, newest first: PENDING and not yet past their
 * time (one the expiry sweep has not reached yet is left out as well), for the blotters.
 */
export const pendingOfKind = (db: Db, kind: CreateKind, now: Date): Promise<ApprovalRow[]> =>
  db
    .selectFrom("approvals")
    .selectAll()
    .where("kind", "=", kind)
    .where("status", "=", "PENDING")
    .where("expires_at", ">", now.toISOString())
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();

/** How many requests wait for approval now (the metrics' gauge). */
export async function pendingCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom("approvals")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("status", "=", "PENDING")
    .executeTakeFirst();
  // PostgreSQL's count is a bigint, which pg hands over as a string.
  return Number(row?.n ?? 0);
}

/** Records one approver's approval; false when they had already approved this request. */
export async function addVote(
  db: Db,
  approvalId: string,
  approver: { email: string; role: string },
  at: Date,
): Promise<boolean> {
  try {
    await db
      .insertInto("approval_votes")
      .values({
        approval_id: approvalId,
        approver_email: approver.email,
        approver_role: approver.role,
        at: at.toISOString(),
      })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function voteCount(db: Db, approvalId: string): Promise<number> {
  const votes = await db
    .selectFrom("approval_votes")
    .select("approver_email")
    .where("approval_id", "=", approvalId)
    .execute();
  return votes.length;
}

/**
 * Moves a PENDING request to `status`, with its `approval.decided` event, in a transaction of its
 * own (pass the database); false when someone else decided it first, who alone records the event.
 */
export async function decideApproval(
  db: Db,
  id: string,
  decision: { status: Exclude<ApprovalStatus, "PENDING">; by: string | null; reason: string | null; at: Date },
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable("approvals")
      .set({
        status: decision.status,
        decided_at: decision.at.toISOString(),
        decided_by: decision.by,
        reason: decision.reason,
      })
      .where("id", "=", id)
      .where("status", "=", "PENDING")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    const row = await approvalRowOf(tx, id);
    const data: ApprovalEventData = { approval: await approvalView(tx, row!) };
    await recordEvent(tx, { type: "approval.decided", at: decision.at, data });
    return true;
  });
}

/** The PENDING requests whose time is up at `now`. */
export const dueToExpire = (db: Db, now: Date) =>
  db
    .selectFrom("approvals")
    .select(["id", "ref_id", "kind"])
    .where("status", "=", "PENDING")
    .where("expires_at", "<=", now.toISOString())
    .execute();

/** Keeps what sending an approved request came to: the service's answer, or the refusal at send. */
export async function recordOutcome(db: Db, id: string, outcome: { status: number; body: unknown }): Promise<void> {
  await db
    .updateTable("approvals")
    .set({ outcome_json: JSON.stringify(outcome) })
    .where("id", "=", id)
    .execute();
}
