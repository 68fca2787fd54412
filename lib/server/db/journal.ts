import "server-only";
import { randomFillSync } from "node:crypto";
import type { Compilable, CompiledQuery, Selectable } from "kysely";
import type { Problem } from "@/lib/spec/problem";
import type { Db } from "./index";
import type { JournalTable } from "./schema";

/**
 * The journal: every create (an order or an internal transfer) is written here
 * BEFORE it is sent to the service, then completed with the outcome. An entry
 * still 'pending' after a crash is reconciled at start (listPending).
 *
 * JSON is stored as text and handed back parsed; amounts stay the strings the
 * service uses, never numbers.
 */

export type JournalKind = "order" | "transfer";
export type JournalStatus = "pending" | "succeeded" | "failed";

export interface JournalEntry {
  id: string;
  kind: JournalKind;
  ref_id: string;
  user_email: string;
  user_role: string;
  /** The order's profile, or the transfer's sending profile. */
  profile_id: string;
  /** The transfer's receiving profile; null for orders. */
  to_profile_id: string | null;
  request: unknown;
  status: JournalStatus;
  created_at: string;
  completed_at: string | null;
  http_status: number | null;
  latency_ms: number | null;
  /** The service's record, when the create succeeded. */
  record: unknown;
  /** The problem, when it failed. */
  problem: Problem | null;
  /** The resulting order or transfer id. */
  result_id: string | null;
}

export interface NewJournalEntry {
  kind: JournalKind;
  refId: string;
  userEmail: string;
  userRole: string;
  profileId: string;
  toProfileId?: string | null;
  /** The request as it will be sent (ref_id included). */
  request: unknown;
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

/** A second entry for a ref_id of the same kind: the unique constraint refused it. */
export class DuplicateJournalEntry extends Error {
  override readonly name = "DuplicateJournalEntry";
  constructor(
    readonly kind: JournalKind,
    readonly refId: string,
    /** The entry that holds the ref_id (undefined only if it vanished meanwhile). */
    readonly existing: JournalEntry | undefined,
  ) {
    super(`A ${kind} with ref_id "${refId}" is already in the journal`);
  }
}

/** A pagination cursor that this journal did not hand out. */
export class InvalidCursor extends Error {
  override readonly name = "InvalidCursor";
  constructor() {
    super("The cursor is not valid; start again from the first page");
  }
}

/** Writes a 'pending' entry before the create is sent. Throws DuplicateJournalEntry when the ref_id is taken. */
export async function beginEntry(db: Db, input: NewJournalEntry): Promise<JournalEntry> {
  const now = new Date();
  const row: Selectable<JournalTable> = {
    id: timeOrderedId(now.getTime()),
    kind: input.kind,
    ref_id: input.refId,
    user_email: input.userEmail,
    user_role: input.userRole,
    profile_id: input.profileId,
    to_profile_id: input.toProfileId ?? null,
    request_json: JSON.stringify(input.request),
    status: "pending",
    created_at: now.toISOString(),
    completed_at: null,
    http_status: null,
    latency_ms: null,
    record_json: null,
    problem_json: null,
    result_id: null,
  };
  try {
    await insertRow(db, row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new DuplicateJournalEntry(input.kind, input.refId, await findByRefId(db, input.kind, input.refId));
  }
  return toEntry(row);
}

/**
 * Completes a pending entry with its outcome. Returns the completed entry, or
 * undefined when it was not pending (already completed, e.g. by reconciliation).
 */
export async function completeEntry(db: Db, id: string, outcome: JournalOutcome): Promise<JournalEntry | undefined> {
  const [row] = await completePending(db, {
    id,
    status: outcome.status,
    completed_at: new Date().toISOString(),
    http_status: outcome.httpStatus,
    latency_ms: Math.round(outcome.latencyMs),
    record_json: outcome.status === "succeeded" ? JSON.stringify(outcome.record ?? null) : null,
    problem_json: outcome.status === "failed" ? JSON.stringify(outcome.problem) : null,
    result_id: outcome.status === "succeeded" ? (outcome.resultId ?? idOf(outcome.record)) : null,
  });
  return row && toEntry(row);
}

type Row = Selectable<JournalTable>;
type Completion = Pick<
  Row,
  "id" | "status" | "completed_at" | "http_status" | "latency_ms" | "record_json" | "problem_json" | "result_id"
>;

/**
 * The two writes of every create, built and compiled by Kysely once per database rather
 * than on every call: building and compiling cost more CPU than SQLite takes to run them.
 */
const insertRow = compiledOnce<Row, unknown>(
  [
    "id",
    "kind",
    "ref_id",
    "user_email",
    "user_role",
    "profile_id",
    "to_profile_id",
    "request_json",
    "status",
    "created_at",
    "completed_at",
    "http_status",
    "latency_ms",
    "record_json",
    "problem_json",
    "result_id",
  ],
  (db, row) => db.insertInto("journal").values(row),
);

const completePending = compiledOnce<Completion, Row>(
  ["id", "status", "completed_at", "http_status", "latency_ms", "record_json", "problem_json", "result_id"],
  (db, { id, ...set }) =>
    db.updateTable("journal").set(set).where("id", "=", id).where("status", "=", "pending").returningAll(),
);

/** Marks a parameter of a query compiled once; no real value starts with a NUL character. */
const SLOT = "\u0000slot:";

/**
 * A query Kysely builds and compiles once per database (each dialect its own SQL), then runs
 * with the values of `keys` put in their places among the parameters: `build` is handed a
 * marker for each key instead of its value, and each marker must come out as a parameter.
 */
function compiledOnce<V extends Record<string, unknown>, R>(
  keys: readonly (keyof V & string)[],
  build: (db: Db, values: V) => Compilable<R>,
): (db: Db, values: V) => Promise<R[]> {
  const compiled = new WeakMap<Db, { query: CompiledQuery<R>; slots: (string | undefined)[] }>();
  return async (db, values) => {
    let known = compiled.get(db);
    if (!known) {
      const markers = Object.fromEntries(keys.map((key) => [key, `${SLOT}${key}`])) as unknown as V;
      const query = build(db, markers).compile();
      const slots = query.parameters.map((p) =>
        typeof p === "string" && p.startsWith(SLOT) ? p.slice(SLOT.length) : undefined,
      );
      const missing = keys.filter((key) => !slots.includes(key));
      if (missing.length > 0) throw new Error(`Compiled query lost the parameters ${missing.join(", ")}`);
      compiled.set(db, (known = { query, slots }));
    }
    const { query, slots } = known;
    const parameters = query.parameters.map((constant, i) => {
      const key = slots[i];
      return key === undefined ? constant : values[key];
    });
    const run: CompiledQuery<R> = { ...query, parameters };
    return (await db.executeQuery(run)).rows;
  };
}

/**
 * Puts a failed entry back to pending for another attempt with the same ref_id: a create
 * the service refused (say, for funds) created nothing, so it may be sent again.
 * Returns undefined when the entry was not failed (someone else took it first).
 */
export async function reopenEntry(
  db: Db,
  id: string,
  input: { userEmail: string; userRole: string; request: unknown },
): Promise<JournalEntry | undefined> {
  const row = await db
    .updateTable("journal")
    .set({
      status: "pending",
      user_email: input.userEmail,
      user_role: input.userRole,
      request_json: JSON.stringify(input.request),
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

export async function findByRefId(db: Db, kind: JournalKind, refId: string): Promise<JournalEntry | undefined> {
  const row = await db
    .selectFrom("journal")
    .selectAll()
    .where("kind", "=", kind)
    .where("ref_id", "=", refId)
    .executeTakeFirst();
  return row && toEntry(row);
}

export async function findEntry(db: Db, id: string): Promise<JournalEntry | undefined> {
  const row = await db.selectFrom("journal").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toEntry(row);
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
  status?: JournalStatus;
  /** Matches either side of a transfer. */
  profileId?: string;
  refIds?: readonly string[];
  /** 1 to MAX_PAGE_SIZE; default DEFAULT_PAGE_SIZE. */
  limit?: number;
  /** The next_cursor of the previous page. */
  cursor?: string | null;
}

export interface JournalPage {
  items: JournalEntry[];
  next_cursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Newest first, keyset-paginated on (created_at, id): stable while new entries arrive. */
export async function listEntries(db: Db, filter: JournalQuery = {}): Promise<JournalPage> {
  const limit = Math.min(Math.max(Math.trunc(filter.limit ?? DEFAULT_PAGE_SIZE), 1), MAX_PAGE_SIZE);
  if (filter.refIds && filter.refIds.length === 0) return { items: [], next_cursor: null };
  let query = db.selectFrom("journal").selectAll();
  if (filter.kind) query = query.where("kind", "=", filter.kind);
  if (filter.user) query = query.where("user_email", "=", filter.user);
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

export interface Submitter {
  user_email: string;
  user_role: string;
  created_at: string;
}

/** Who submitted each of these ref_ids (for the tables' "submitted by"); unknown ref_ids are absent. */
export async function submittersOf(
  db: Db,
  kind: JournalKind,
  refIds: readonly string[],
): Promise<Map<string, Submitter>> {
  const result = new Map<string, Submitter>();
  if (refIds.length === 0) return result;
  const rows = await db
    .selectFrom("journal")
    .select(["ref_id", "user_email", "user_role", "created_at"])
    .where("kind", "=", kind)
    .where("ref_id", "in", [...new Set(refIds)])
    .execute();
  for (const { ref_id, ...submitter } of rows) result.set(ref_id, submitter);
  return result;
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
  };
}

function idOf(record: unknown): string | null {
  if (typeof record !== "object" || record === null) return null;
  const id = (record as { id?: unknown }).id;
  return typeof id === "string" ? id : null;
}

/** SQLite's SQLITE_CONSTRAINT_UNIQUE / PostgreSQL's unique_violation (23505). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
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
  throw new InvalidCursor();
}

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7-shaped id: 48 bits of milliseconds, then a per-process sequence, then random
 * bits. Ids made in one process sort in creation order, which breaks created_at ties.
 */
function timeOrderedId(ms: number): string {
  if (ms > lastMs) {
    lastMs = ms;
    sequence = 0;
  } else {
    sequence++;
    if (sequence > 0xfff) {
      // 4096 ids in one millisecond: borrow the next millisecond to stay ordered.
      lastMs++;
      sequence = 0;
    }
  }
  const random = randomBits();
  const hex =
    lastMs.toString(16).padStart(12, "0") +
    "7" +
    sequence.toString(16).padStart(3, "0") +
    ((random[0]! & 0x3f) | 0x80).toString(16) +
    random.toString("hex", 1, 8);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Random bytes drawn from the CSPRNG 4 KB at a time (as randomUUID does): a call per id cost more than the id. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/** 8 fresh random bytes, never handed out twice. */
function randomBits(): Buffer {
  if (poolAt + 8 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += 8;
  return pool.subarray(poolAt - 8, poolAt);
}
