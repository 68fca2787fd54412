import "server-only";
import type { Kysely, Selectable } from "kysely";
import type { BatchStatus } from "@/lib/shared/batch";
import type { Db } from "./index";
import type { BatchRowTable, BatchTable, Database } from "./schema";

/**
 * Batches of internal transfers (tables `batches` and `batch_rows`): every query on either. A
 * batch is weighed and held or sent as a whole (lib/server/batches); each of its rows is then
 * sent once as an ordinary transfer under its own ref_id, whose journal entry is the proof it
 * went. No HTTP here: "not found" is undefined.
 */

export type BatchRecord = Selectable<BatchTable>;
export type BatchRowRecord = Selectable<BatchRowTable>;

/** Writes a batch and its rows; `tx` is the requester's locked transaction. Throws on a taken ref_id. */
export async function insertBatch(tx: Kysely<Database>, batch: BatchRecord, rows: BatchRowRecord[]): Promise<void> {
  await tx.insertInto("batches").values(batch).execute();
  // SQLite takes at most 32,766 parameters in one statement: 14 columns × 1,000 rows is past it.
  for (let i = 0; i < rows.length; i += 500) {
    await tx
      .insertInto("batch_rows")
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

export const batchOfRef = (db: Db, refId: string): Promise<BatchRecord | undefined> =>
  db.selectFrom("batches").selectAll().where("ref_id", "=", refId).executeTakeFirst();

export const batchOfId = (db: Db, id: string): Promise<BatchRecord | undefined> =>
  db.selectFrom("batches").selectAll().where("id", "=", id).executeTakeFirst();

export const batchOfApproval = (db: Db, approvalId: string): Promise<BatchRecord | undefined> =>
  db.selectFrom("batches").selectAll().where("approval_id", "=", approvalId).executeTakeFirst();

export const rowsOfBatch = (db: Db, batchId: string): Promise<BatchRowRecord[]> =>
  db.selectFrom("batch_rows").selectAll().where("batch_id", "=", batchId).orderBy("row").execute();

/** The batch row that owns `refId`, if one does. */
export const batchRowOfRef = (db: Db, refId: string): Promise<BatchRowRecord | undefined> =>
  db.selectFrom("batch_rows").selectAll().where("ref_id", "=", refId).executeTakeFirst();

/** Newest first, `limit` of them, before the batch `before` (its created_at and id) when given. */
export async function listBatches(
  db: Db,
  { limit, before }: { limit: number; before?: { created_at: string; id: string } },
): Promise<BatchRecord[]> {
  let q = db.selectFrom("batches").selectAll();
  if (before) {
    q = q.where((eb) =>
      eb.or([
        eb("created_at", "<", before.created_at),
        eb.and([eb("created_at", "=", before.created_at), eb("id", "<", before.id)]),
      ]),
    );
  }
  return q.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

/**
 * Of `refIds`, those another transfer already has: a row of a batch, a create journaled or held.
 * A row's ref_id is one transfer's forever.
 */
export async function takenRefIds(db: Db, refIds: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < refIds.length; i += 500) {
    const part = refIds.slice(i, i + 500);
    const [rows, journaled, held] = await Promise.all([
      db.selectFrom("batch_rows").select("ref_id").where("ref_id", "in", part).execute(),
      db.selectFrom("journal").select("ref_id").where("kind", "=", "transfer").where("ref_id", "in", part).execute(),
      db.selectFrom("approvals").select("ref_id").where("kind", "=", "transfer").where("ref_id", "in", part).execute(),
    ]);
    for (const r of [...rows, ...journaled, ...held]) taken.add(r.ref_id);
  }
  return taken;
}

/**
 * What a person's batches still hold back, for their totals (in their lock): the value of the
 * rows not yet sent, of batches sending or waiting for approval; `unapproved` those of batches
 * sent without approval (they count toward the rolling threshold as they go). `exceptBatch`,
 * the batch being weighed again at its approval, is left out.
 */
export async function unsentBatchValues(
  tx: Kysely<Database>,
  email: string,
  exceptBatch?: string,
): Promise<{ reserved: string[]; unapproved: string[] }> {
  let query = tx
    .selectFrom("batch_rows")
    .innerJoin("batches", "batches.id", "batch_rows.batch_id")
    .select(["batch_rows.value_usd", "batches.approval_id", "batches.status"])
    .where("batches.requested_by", "=", email)
    .where("batches.status", "in", ["SENDING", "AWAITING_APPROVAL"])
    .where("batch_rows.status", "=", "WAITING");
  if (exceptBatch) query = query.where("batches.id", "!=", exceptBatch);
  const rows = await query.execute();
  return {
    reserved: rows.map((r) => r.value_usd),
    unapproved: rows.filter((r) => r.status === "SENDING" && r.approval_id === null).map((r) => r.value_usd),
  };
}

/** The person's batches asked since `since` with these rows (the repeat question's earlier batch). */
export const sameRowsSince = (tx: Kysely<Database>, email: string, rowsKey: string, since: string) =>
  tx
    .selectFrom("batches")
    .selectAll()
    .where("requested_by", "=", email)
    .where("rows_key", "=", rowsKey)
    .where("created_at", ">=", since)
    .orderBy("created_at", "desc")
    .execute();

/** Moves a batch from one of `from` to `to`; false when it was in none of them (someone else moved it). */
export async function moveBatch(
  db: Db,
  id: string,
  from: readonly BatchStatus[],
  to: BatchStatus,
  at: Date,
  extra: Partial<Pick<BatchRecord, "cancelled_by">> = {},
): Promise<boolean> {
  const result = await db
    .updateTable("batches")
    .set({ status: to, updated_at: at.toISOString(), ...extra })
    .where("id", "=", id)
    .where("status", "in", [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The batches rows are being sent for: the sender's work list. */
export const sendingBatchIds = async (db: Db): Promise<string[]> =>
  (await db.selectFrom("batches").select("id").where("status", "=", "SENDING").orderBy("created_at").execute()).map(
    (b) => b.id,
  );

/**
 * Of `refIds`, the rows a SENDING batch still has to send: their journal entries are the batch
 * sender's to finish (it sends a pending row again under its ref_id), not the journal's sweep's.
 */
export async function rowsStillSending(db: Db, refIds: readonly string[]): Promise<Set<string>> {
  const sending = new Set<string>();
  for (let i = 0; i < refIds.length; i += 500) {
    const rows = await db
      .selectFrom("batch_rows")
      .innerJoin("batches", "batches.id", "batch_rows.batch_id")
      .select("batch_rows.ref_id")
      .where("batch_rows.ref_id", "in", refIds.slice(i, i + 500))
      .where("batch_rows.status", "=", "WAITING")
      .where("batches.status", "=", "SENDING")
      .execute();
    for (const r of rows) sending.add(r.ref_id);
  }
  return sending;
}

/** The next row of a batch to send, in the file's order. */
export const nextWaitingRow = (db: Db, batchId: string): Promise<BatchRowRecord | undefined> =>
  db
    .selectFrom("batch_rows")
    .selectAll()
    .where("batch_id", "=", batchId)
    .where("status", "=", "WAITING")
    .orderBy("row")
    .limit(1)
    .executeTakeFirst();

/** A row's outcome, written once: only a WAITING row moves. */
export async function settleRow(
  db: Db,
  batchId: string,
  row: number,
  outcome: Pick<BatchRowRecord, "status" | "transfer_id" | "transfer_status" | "problem_json">,
): Promise<boolean> {
  const result = await db
    .updateTable("batch_rows")
    .set(outcome)
    .where("batch_id", "=", batchId)
    .where("row", "=", row)
    .where("status", "=", "WAITING")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Skips the rows not yet sent (a cancel, a rejection, an expiry); answers how many. */
export async function skipWaitingRows(db: Db, batchId: string): Promise<number> {
  const result = await db
    .updateTable("batch_rows")
    .set({ status: "SKIPPED" })
    .where("batch_id", "=", batchId)
    .where("status", "=", "WAITING")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
