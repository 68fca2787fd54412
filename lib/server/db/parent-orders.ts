import "server-only";
import type { Kysely, Selectable } from "kysely";
import { isOpenParent, UNSETTLED_CHILD_STATUSES, type ParentOrderStatus } from "@/lib/shared/parent-order";
import { divideDecimalDown, multiplyDecimal } from "@/lib/spec";
import type { Db } from "./index";
import type { Database, ParentChildTable, ParentOrderTable } from "./schema";

/**
 * TWAP parent orders (tables `parent_orders` and `parent_children`): every query on either. A
 * parent is weighed, held or started as a whole (lib/server/parent-orders); each child is then
 * sent once as an ordinary order under its own ref_id, whose journal entry is the proof it went.
 * No HTTP here: "not found" is undefined.
 */

export type ParentRecord = Selectable<ParentOrderTable>;
export type ChildRecord = Selectable<ParentChildTable>;

export const insertParent = (tx: Kysely<Database>, parent: ParentRecord) =>
  tx.insertInto("parent_orders").values(parent).execute();

export const parentOfRef = (db: Db, refId: string): Promise<ParentRecord | undefined> =>
  db.selectFrom("parent_orders").selectAll().where("ref_id", "=", refId).executeTakeFirst();

export const parentOfId = (db: Db, id: string): Promise<ParentRecord | undefined> =>
  db.selectFrom("parent_orders").selectAll().where("id", "=", id).executeTakeFirst();

export const parentOfApproval = (db: Db, approvalId: string): Promise<ParentRecord | undefined> =>
  db.selectFrom("parent_orders").selectAll().where("approval_id", "=", approvalId).executeTakeFirst();

export const childrenOf = (db: Db, parentId: string): Promise<ChildRecord[]> =>
  db.selectFrom("parent_children").selectAll().where("parent_id", "=", parentId).orderBy("n").execute();

/** The children of several parents at once, by parent id. */
export async function childrenOfMany(db: Db, parentIds: readonly string[]): Promise<Map<string, ChildRecord[]>> {
  const byParent = new Map<string, ChildRecord[]>(parentIds.map((id) => [id, []]));
  if (parentIds.length === 0) return byParent;
  const rows = await db
    .selectFrom("parent_children")
    .selectAll()
    .where("parent_id", "in", [...parentIds])
    .orderBy("parent_id")
    .orderBy("n")
    .execute();
  for (const r of rows) byParent.get(r.parent_id)?.push(r);
  return byParent;
}

/** The child that owns `refId`, if one does. */
export const childOfRef = (db: Db, refId: string): Promise<ChildRecord | undefined> =>
  db.selectFrom("parent_children").selectAll().where("ref_id", "=", refId).executeTakeFirst();

/** The parent whose child is the order `orderId`, if any. */
export const childOfOrder = (db: Db, orderId: string): Promise<ChildRecord | undefined> =>
  db.selectFrom("parent_children").selectAll().where("order_id", "=", orderId).executeTakeFirst();

/** Newest first, at most `limit`. */
export const listParents = (db: Db, limit: number): Promise<ParentRecord[]> =>
  db.selectFrom("parent_orders").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();

/** The parents being worked: the scheduler's work list. */
export const workingParentIds = async (db: Db): Promise<string[]> =>
  (
    await db.selectFrom("parent_orders").select("id").where("status", "=", "WORKING").orderBy("created_at").execute()
  ).map((p) => p.id);

/** The parents whose children may still fill: those being worked, and any with a child sent and not yet settled. */
export async function parentsToWork(db: Db): Promise<string[]> {
  const [working, unsettled] = await Promise.all([
    workingParentIds(db),
    db
      .selectFrom("parent_children")
      .select("parent_id")
      .distinct()
      .where("status", "in", [...UNSETTLED_CHILD_STATUSES])
      .execute(),
  ]);
  return [...new Set([...working, ...unsettled.map((r) => r.parent_id)])];
}

/** Moves a parent from one of `from` to `to`; false when it was in none of them (someone else moved it). */
export async function moveParent(
  db: Db,
  id: string,
  from: readonly ParentOrderStatus[],
  to: ParentOrderStatus,
  at: Date,
  extra: Partial<Pick<ParentRecord, "cancelled_by" | "paused_at" | "started_at" | "ends_at" | "arrival_mid">> = {},
): Promise<boolean> {
  const result = await db
    .updateTable("parent_orders")
    .set({ status: to, updated_at: at.toISOString(), ...extra })
    .where("id", "=", id)
    .where("status", "in", [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The schedule written when a parent starts: one SCHEDULED child per slice. */
export async function insertChildren(db: Db, children: ChildRecord[]): Promise<void> {
  // SQLite takes at most 32,766 parameters in one statement: 13 columns × 500 children is within it.
  await db.insertInto("parent_children").values(children).execute();
}

/**
 * Moves the children still SCHEDULED to `status` (SKIPPED at an end, MERGED when a later slice
 * takes their share): all of them, or those before slice `beforeN`. No bound when none is given:
 * PostgreSQL's `integer` column refuses a parameter past 2^31 − 1, such as Number.MAX_SAFE_INTEGER.
 */
export async function closeScheduled(
  db: Db,
  parentId: string,
  status: "SKIPPED" | "MERGED",
  beforeN?: number,
): Promise<number> {
  let query = db
    .updateTable("parent_children")
    .set({ status })
    .where("parent_id", "=", parentId)
    .where("status", "=", "SCHEDULED");
  if (beforeN !== undefined) query = query.where("n", "<", beforeN);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Writes what a child is once its amount and price are decided (before it is sent). */
export const updateChild = (db: Db, parentId: string, n: number, fields: Partial<ChildRecord>) =>
  db.updateTable("parent_children").set(fields).where("parent_id", "=", parentId).where("n", "=", n).execute();

/** The parent's fills, added up from its children (each child's fill read off its order). */
export async function writeParentFills(db: Db, parentId: string, filled: string, notional: string, at: Date) {
  await db
    .updateTable("parent_orders")
    .set({ filled_base: filled, filled_notional: notional, updated_at: at.toISOString() })
    .where("id", "=", parentId)
    .execute();
}

/** Moves the schedule of what is still SCHEDULED on by `ms` (a resume after a pause), and the parent's end. */
export async function shiftSchedule(db: Db, parent: ParentRecord, ms: number): Promise<void> {
  const children = await childrenOf(db, parent.id);
  for (const c of children.filter((c) => c.status === "SCHEDULED")) {
    await updateChild(db, parent.id, c.n, { scheduled_at: later(c.scheduled_at, ms) });
  }
  if (parent.ends_at) {
    await db
      .updateTable("parent_orders")
      .set({ ends_at: later(parent.ends_at, ms) })
      .where("id", "=", parent.id)
      .execute();
  }
}

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/**
 * Of `refIds`, the children of parents being worked: their journal entries are the scheduler's
 * to finish (it sends a pending child again under its ref_id), not the journal's sweep's. A
 * paused or cancelled parent sends nothing more: the sweep asks the service about its children.
 */
export async function childrenStillWorked(db: Db, refIds: readonly string[]): Promise<Set<string>> {
  const worked = new Set<string>();
  for (let i = 0; i < refIds.length; i += 500) {
    const rows = await db
      .selectFrom("parent_children")
      .innerJoin("parent_orders", "parent_orders.id", "parent_children.parent_id")
      .select("parent_children.ref_id")
      .where("parent_children.ref_id", "in", refIds.slice(i, i + 500))
      .where("parent_orders.status", "=", "WORKING")
      .execute();
    for (const r of rows) worked.add(r.ref_id);
  }
  return worked;
}

/**
 * What a person's parent orders weigh in their order totals (in their lock): an open parent
 * (waiting for approval, working or paused) its whole value, reserved; one that ended, the share
 * of its value its children filled. `unapproved`: those started without an approval, for the
 * rolling threshold. A child is never counted on its own: its parent holds it. `exceptParent`,
 * the parent weighed again at its approval, is left out. Ended parents count from `since`.
 */
export async function parentOrderValues(
  tx: Kysely<Database>,
  email: string,
  since: string,
  exceptParent?: string,
): Promise<{ value_usd: string; created_at: string; approved: boolean; open: boolean }[]> {
  let query = tx
    .selectFrom("parent_orders")
    .select(["id", "value_usd", "created_at", "approval_id", "status", "filled_base", "base_amount"])
    .where("requested_by", "=", email)
    .where("status", "!=", "REJECTED")
    .where((eb) =>
      eb.or([eb("status", "in", ["AWAITING_APPROVAL", "WORKING", "PAUSED"]), eb("created_at", ">=", since)]),
    );
  if (exceptParent) query = query.where("id", "!=", exceptParent);
  const rows = await query.execute();
  return rows.map((p) => {
    const open = isOpenParent(p.status as ParentOrderStatus);
    return {
      value_usd: open ? p.value_usd : divideDecimalDown(multiplyDecimal(p.value_usd, p.filled_base), p.base_amount, 2),
      created_at: p.created_at,
      approved: p.approval_id !== null,
      open,
    };
  });
}
