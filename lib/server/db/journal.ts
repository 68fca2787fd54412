import "server-only";
import { v7 as timeOrderedId } from "uuid";
import type { Selectable } from "kysely";
import type { JournalEntry, JournalKind, JournalStatus } from "@/lib/shared/journal-entry";
import type { Page } from "@/lib/shared/list-routes";
import { problem, ProblemError, type Problem } from "@/lib/spec/problem";
import { finalEventOf, type EventType } from "@/lib/shared/webhooks";
import { containsText } from "./contains";
import { recordEvents } from "./outbox";
import { isUniqueViolation, type Db } from "./index";
import { requestKey } from "./request-key";
import type { JournalTable } from "./schema";

/**
 * The journal: every create (an order or an internal transfer) is written here
 * BEFORE it is sent to the service, then completed with the outcome. An entry
 * still 'pending' after a crash is reconciled at start (listPending).
 *
 * JSON is stored as text and handed back parsed; amounts stay the strings the
 * service uses, never numbers.
 */

export type { JournalEntry, JournalKind, JournalStatus };

export interface NewJournalEntry {
  kind: JournalKind;
  refId: string;
  userEmail: string;
  userRole: string;
  profileId: string;
  toProfileId?: string | null;
  /** The request as it will be sent (ref_id included). */
  request: unknown;
  /** Its worth in USD, as the controls valued it. */
  valueUsd?: string | null;
  /** The earlier create this one repeats, when the person confirmed sending it again. */
  repeatOf?: string | null;
  /** The approval it is sent under; absent when it needed none. */
  approvalId?: string | null;
  /** An order's market mid as it arrived, for its execution quality. */
  arrivalMid?: string | null;
  /** A parent order's child: its parent, whose weighing it was sent under. */
  parentOrderId?: string | null;
  /** When it was asked for, on the runtime's clock. */
  at: Date;
}

export type JournalOutcome =
  | {
      status: "succeeded";
      httpStatus: number;
      latencyMs: number;
      record: unknown;
      /** Defaults to `record.id`. */
      resultId?: string | null;
    }
  | { status: "failed"; httpStatus: number; latencyMs: number; problem: Problem };

/**
 * A cursor the journal did not hand out. A ProblemError (lib/spec's, the one error that carries
 * a problem), so whoever lists the journal for a request answers it as the 400 naming `cursor`
 * without the journal knowing any HTTP helper.
 */
export class JournalCursorInvalid extends ProblemError {
  constructor() {
    const message = "The cursor is not valid; start again from the first page";
    super(problem(400, "Bad Request", `cursor: ${message}`, { errors: [{ field: "cursor", message }] }));
  }
}

/** A second entry for a ref_id of the same kind: the unique constraint refused it. */
export class JournalRefIdTaken extends Error {
  override readonly name = "JournalRefIdTaken";
  constructor(
    readonly kind: JournalKind,
    readonly refId: string,
    /** The entry that holds the ref_id (undefined only if it vanished meanwhile). */
    readonly existing: JournalEntry | undefined,
  ) {
    super(`A ${kind} with ref_id "${refId}" is already in the journal`);
  }
}

/** Writes a 'pending' entry before the create is sent. Throws JournalRefIdTaken when the ref_id is taken. */
export const beginEntry = (db: Db, input: NewJournalEntry): Promise<JournalEntry> => insertEntry(db, input, "pending");

/**
 * Writes a 'declined' entry: a create the person chose not to send when asked whether it
 * repeats `repeatOf`. Nothing was sent. Throws JournalRefIdTaken when the ref_id is taken.
 */
export const recordDeclined = (db: Db, input: NewJournalEntry & { repeatOf: string }): Promise<JournalEntry> =>
  insertEntry(db, input, "declined");

async function insertEntry(db: Db, input: NewJournalEntry, status: "pending" | "declined"): Promise<JournalEntry> {
  const now = input.at;
  const row: Selectable<JournalTable> = {
    // UUIDv7: ordered by creation, which breaks ties between entries of the same millisecond.
    id: timeOrderedId(),
    kind: input.kind,
    ref_id: input.refId,
    user_email: input.userEmail,
    user_role: input.userRole,
    profile_id: input.profileId,
    to_profile_id: input.toProfileId ?? null,
    request_json: JSON.stringify(input.request),
    request_key: requestKey(input.request),
    status,
    created_at: now.toISOString(),
    completed_at: status === "declined" ? now.toISOString() : null,
    http_status: null,
    latency_ms: null,
    record_json: null,
    problem_json: null,
    result_id: null,
    value_usd: input.valueUsd ?? null,
    duplicate_of: input.repeatOf ?? null,
    approval_id: input.approvalId ?? null,
    arrival_mid: input.arrivalMid ?? null,
    parent_order_id: input.parentOrderId ?? null,
    followed_status: null,
    followed_at: null,
  };
  try {
    await db.insertInto("journal").values(row).execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Inside a PostgreSQL transaction the failed insert aborted it: the lookup cannot answer there.
    const existing = await journalEntryOfRef(db, input.kind, input.refId).catch(() => undefined);
    throw new JournalRefIdTaken(input.kind, input.refId, existing);
  }
  return toEntry(row);
}

/**
 * Completes a pending entry with its outcome. Returns the completed entry, or
 * undefined when it was not pending (already completed, e.g. by reconciliation).
 * A create that succeeded is reported in the same transaction (the outbox, issue 30):
 * `order.created` or `transfer.created`, and its final event when the service's answer is final
 * already (an IOC order filled at once); the record follower reports the others' later.
 */
export async function completeEntry(db: Db, id: string, outcome: JournalOutcome): Promise<JournalEntry | undefined> {
  const succeeded = outcome.status === "succeeded";
  const status = succeeded ? statusOf(outcome.record) : null;
  return db.transaction().execute(async (tx) => {
    const at = new Date();
    const row = await tx
      .updateTable("journal")
      .set({
        status: outcome.status,
        completed_at: at.toISOString(),
        http_status: outcome.httpStatus,
        latency_ms: Math.round(outcome.latencyMs),
        record_json: succeeded ? JSON.stringify(outcome.record ?? null) : null,
        problem_json: outcome.status === "failed" ? JSON.stringify(outcome.problem) : null,
        result_id: succeeded ? (outcome.resultId ?? idOf(outcome.record)) : null,
        followed_status: status,
        followed_at: status === null ? null : at.toISOString(),
      })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .returningAll()
      .executeTakeFirst();
    if (row && succeeded && (row.kind === "order" || row.kind === "transfer")) {
      const created: EventType = row.kind === "order" ? "order.created" : "transfer.created";
      const final = status === null ? undefined : finalEventOf(row.kind, status);
      const data = { [row.kind]: outcome.record, ref_id: row.ref_id };
      await recordEvents(
        tx,
        [created, ...(final ? [final] : [])].map((type) => ({ type, at, data })),
      );
    }
    return row && toEntry(row);
  });
}

/** A record's `status`, when it has one. */
const statusOf = (record: unknown): string | null => {
  const status = (record as { status?: unknown } | null)?.status;
  return typeof status === "string" ? status : null;
};

/**
 * Puts a failed entry back to pending for another attempt with the same ref_id: a create the
 * service refused (say, for funds) created nothing, so it may be sent again, through the
 * controls again. Its request and its requester stay as they were (one request per ref_id,
 * forever): only the role, the value and the approval of this attempt are written.
 * Returns undefined when the entry was not failed (someone else took it first).
 */
export async function reopenEntry(
  db: Db,
  id: string,
  attempt: { userRole: string; valueUsd: string | null; approvalId?: string | null },
): Promise<JournalEntry | undefined> {
  const row = await db
    .updateTable("journal")
    .set({
      status: "pending",
      user_role: attempt.userRole,
      value_usd: attempt.valueUsd,
      approval_id: attempt.approvalId ?? null,
      completed_at: null,
      http_status: null,
      latency_ms: null,
      record_json: null,
      problem_json: null,
      result_id: null,
    })
    .where("id", "=", id)
    .where("status", "=", "failed")
    .returningAll()
    .executeTakeFirst();
  return row && toEntry(row);
}

/** The journal's entry for this ref_id of `kind`, if any (one at most: ref_ids are unique per kind). */
export async function journalEntryOfRef(db: Db, kind: JournalKind, refId: string): Promise<JournalEntry | undefined> {
  const row = await db
    .selectFrom("journal")
    .selectAll()
    .where("kind", "=", kind)
    .where("ref_id", "=", refId)
    .executeTakeFirst();
  return row && toEntry(row);
}

/** The newest entry of `kind` whose result is `resultId` (the order a create made). */
export async function findByResultId(db: Db, kind: JournalKind, resultId: string): Promise<JournalEntry | undefined> {
  const row = await db
    .selectFrom("journal")
    .selectAll()
    .where("kind", "=", kind)
    .where("result_id", "=", resultId)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row && toEntry(row);
}

/**
 * When the dashboard received an order's create, and the market's mid then (null when none was
 * read, or the entry predates migration 0014): its execution quality is weighed against it.
 */
export interface OrderArrival {
  order_id: string;
  profile_id: string;
  arrival_mid: string | null;
  /** The journal entry's created_at: when it was asked for (an approved one: when it was released). */
  arrival_at: string;
}

/** The arrival of the order `orderId` sent through the dashboard; undefined when it did not send it. */
export async function arrivalOfOrder(db: Db, orderId: string): Promise<OrderArrival | undefined> {
  const row = await arrivalColumns(db)
    .where("result_id", "=", orderId)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row && arrivalOf(row);
}

/**
 * The arrivals of these orders the dashboard sent, by order id, in one query by ref_id (the
 * journal's key); an entry counts only for the order it made (a ref_id the service let someone
 * reuse later names another order).
 */
export async function arrivalsOfOrders(
  db: Db,
  orders: readonly { id: string; ref_id?: string }[],
): Promise<Map<string, OrderArrival>> {
  const refIds = [...new Set(orders.flatMap((o) => (o.ref_id ? [o.ref_id] : [])))];
  if (refIds.length === 0) return new Map();
  const ids = new Set(orders.map((o) => o.id));
  const rows = await arrivalColumns(db).where("ref_id", "in", refIds).execute();
  return new Map(rows.filter((r) => r.result_id && ids.has(r.result_id)).map((r) => [r.result_id!, arrivalOf(r)]));
}

const arrivalColumns = (db: Db) =>
  db
    .selectFrom("journal")
    .select(["result_id", "profile_id", "arrival_mid", "created_at"])
    .where("kind", "=", "order")
    .where("status", "=", "succeeded");

const arrivalOf = (
  row: Pick<JournalTable, "result_id" | "profile_id" | "arrival_mid" | "created_at">,
): OrderArrival => ({
  order_id: row.result_id!,
  profile_id: row.profile_id,
  arrival_mid: row.arrival_mid,
  arrival_at: row.created_at,
});

/**
 * The creates of `kind` from `profileId` this person sent since `since` with the same request
 * apart from its ref_id, newest first: entries pending or succeeded (a failed or declined
 * create made nothing to repeat). The repeat question reads it.
 */
export async function listRepeatsSince(
  db: Db,
  filter: { kind: JournalKind; userEmail: string; profileId: string; request: unknown; since: Date },
): Promise<JournalEntry[]> {
  const rows = await db
    .selectFrom("journal")
    .selectAll()
    .where("request_key", "=", requestKey(filter.request))
    .where("user_email", "=", filter.userEmail)
    .where("created_at", ">=", filter.since.toISOString())
    .where("kind", "=", filter.kind)
    .where("profile_id", "=", filter.profileId)
    .where("status", "in", ["pending", "succeeded"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toEntry);
}

/** Entries still pending, oldest first: what reconciliation at start asks the service about. */
export async function listPending(db: Db, options: { createdBefore?: Date } = {}): Promise<JournalEntry[]> {
  let query = db.selectFrom("journal").selectAll().where("status", "=", "pending");
  if (options.createdBefore) query = query.where("created_at", "<", options.createdBefore.toISOString());
  const rows = await query.orderBy("created_at", "asc").orderBy("id", "asc").execute();
  return rows.map(toEntry);
}

export interface JournalQuery {
  kind?: JournalKind;
  /** The submitting user's email. */
  user?: string;
  /** Any part of the submitting user's email, in any case ("TRADER" finds trader@example.com). */
  userContains?: string;
  /** Created at or after this time (ISO 8601, UTC, as toISOString writes it). */
  from?: string;
  /** Created before this time (ISO 8601, UTC). */
  to?: string;
  status?: JournalStatus;
  /** Matches either side of a transfer. */
  profileId?: string;
  refIds?: readonly string[];
  /** How many entries, 1 to MAX_PAGE_SIZE (GET /api/activity checks it); default DEFAULT_PAGE_SIZE. */
  limit?: number;
  /** The next_cursor of the previous page. */
  cursor?: string | null;
}

/** A page of the journal: the one list page shape (lib/shared/list-routes.ts). */
export type JournalPage = Page<JournalEntry>;

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Newest first, keyset-paginated on (created_at, id): stable while new entries arrive. */
export async function listEntries(db: Db, filter: JournalQuery = {}): Promise<JournalPage> {
  const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
  if (filter.refIds && filter.refIds.length === 0) return { items: [], next_cursor: null };
  let query = db.selectFrom("journal").selectAll();
  if (filter.kind) query = query.where("kind", "=", filter.kind);
  if (filter.user) query = query.where("user_email", "=", filter.user);
  if (filter.userContains) query = query.where(containsText("user_email", filter.userContains));
  // created_at is ISO text in UTC, which orders as the instants do.
  if (filter.from) query = query.where("created_at", ">=", filter.from);
  if (filter.to) query = query.where("created_at", "<", filter.to);
  if (filter.status) query = query.where("status", "=", filter.status);
  if (filter.profileId) {
    const profileId = filter.profileId;
    query = query.where((eb) => eb.or([eb("profile_id", "=", profileId), eb("to_profile_id", "=", profileId)]));
  }
  if (filter.refIds) query = query.where("ref_id", "in", [...filter.refIds]);
  if (filter.cursor) {
    const [createdAt, id] = decodeCursor(filter.cursor);
    query = query.where((eb) =>
      eb.or([eb("created_at", "<", createdAt), eb.and([eb("created_at", "=", createdAt), eb("id", "<", id)])]),
    );
  }
  const rows = await query
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toEntry),
    next_cursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

function toEntry(row: Selectable<JournalTable>): JournalEntry {
  return {
    id: row.id,
    kind: row.kind as JournalKind,
    ref_id: row.ref_id,
    user_email: row.user_email,
    user_role: row.user_role,
    profile_id: row.profile_id,
    to_profile_id: row.to_profile_id,
    request: JSON.parse(row.request_json),
    status: row.status as JournalStatus,
    created_at: row.created_at,
    completed_at: row.completed_at,
    http_status: row.http_status,
    latency_ms: row.latency_ms,
    record: row.record_json === null ? null : JSON.parse(row.record_json),
    problem: row.problem_json === null ? null : (JSON.parse(row.problem_json) as Problem),
    result_id: row.result_id,
    duplicate_of: row.duplicate_of,
  };
}

function idOf(record: unknown): string | null {
  if (typeof record !== "object" || record === null) return null;
  const id = (record as { id?: unknown }).id;
  return typeof id === "string" ? id : null;
}

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string")) {
      return value as [string, string];
    }
  } catch {
    // fall through
  }
  throw new JournalCursorInvalid();
}
