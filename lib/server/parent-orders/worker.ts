import "server-only";
import type { ParentOrderCompletedData } from "@/lib/shared/event-data";
import { childRefId, isUnsettledChild } from "@/lib/shared/parent-order";
import type { Role } from "@/lib/shared/roles";
import {
  amountIfSet,
  compareDecimal,
  divideDecimalDown,
  midpointDecimal,
  multiplyDecimal,
  trimZeros,
  type Order,
} from "@/lib/spec";
import { storedCreate } from "../create/parse";
import { sendOnce } from "../create/send-once";
import { tickersOf } from "../create/controls/facts";
import { beginEntry, journalEntryOfRef, type JournalEntry } from "../db/journal";
import { recordEvent } from "../db/outbox";
import {
  childrenOf,
  closeScheduled,
  moveParent,
  parentOfId,
  updateChild,
  writeParentFills,
  type ChildRecord,
  type ParentRecord,
} from "../db/parent-orders";
import { marketTradesOf } from "../quality/market-trades";
import type { Runtime } from "../runtime";
import { childAmount, childPrice } from "./schedule";
import { fillsOf, viewOf } from "./view";

/**
 * Works one TWAP parent (lib/server/parent-orders/scheduler.ts runs it on the leader): settles
 * the children it sent, then, when a slice is due, sends one child. Every step is written before
 * the next is taken, so whatever stops the process in between (kill -9, SIGTERM, a failover), the
 * next pass on any instance goes on from the database:
 * - a child's amount, price and journal entry are written in one transaction (SENDING) before it
 *   is sent: a SCHEDULED child was never sent;
 * - a SENDING child whose entry is still pending is sent again under the same ref_id, which the
 *   service answers with the order it already made (lib/server/create/send-once.ts): none goes twice;
 * - a child sent is read back from the service until it is done (an IOC is within a moment), and
 *   its fill added to the parent's before the next slice is weighed: what is filled never passes the whole;
 * - slices whose time passed while nothing could send them (the process down, the service
 *   refusing us) are MERGED into the latest due one, never sent one by one late.
 * Returns when it next wants to run (epoch ms), or undefined when it has nothing left to do.
 */

/** How soon a child just sent is read back. */
export const SETTLE_AFTER_MS = 500;

/** Told after each step that changes what the parent shows. */
export type OnParentProgress = (parentId: string) => void | Promise<void>;

export async function workParent(rt: Runtime, id: string, onProgress: OnParentProgress): Promise<number | undefined> {
  if (rt.lifecycle.stopping || !rt.live.leading) return undefined;
  const parent = await parentOfId(rt.db, id);
  if (!parent) return undefined;
  let children = await childrenOf(rt.db, id);
  const unsettled = children.filter(isUnsettledChild);
  for (const child of unsettled) await settleChild(rt, parent, child);
  if (unsettled.length > 0) children = await childrenOf(rt.db, id);
  // The parent's fills are always read off its children's, never carried: what the next slice asks depends on them.
  const fills = fillsOf(children);
  if (await writeFills(rt, parent, fills)) await onProgress(id);
  if (children.some(isUnsettledChild)) return rt.clock.now() + SETTLE_AFTER_MS;
  if (parent.status !== "WORKING") return undefined;
  const scheduled = children.filter((c) => c.status === "SCHEDULED");
  if (scheduled.length === 0) return complete(rt, parent, onProgress);
  const now = rt.clock.now();
  const due = scheduled.filter((c) => Date.parse(c.scheduled_at) <= now);
  if (due.length === 0) return Math.min(...scheduled.map((c) => Date.parse(c.scheduled_at)));
  const slice = due.at(-1)!;
  // Slices missed while nothing could send them go with this one, never late one by one.
  if (due.length > 1) await closeScheduled(rt.db, id, "MERGED", slice.n);
  // Read again: a pause or a cancel may have landed while the children settled.
  const current = await parentOfId(rt.db, id);
  if (current?.status !== "WORKING") return undefined;
  await sendChild(rt, current, slice, fills.filled);
  // The child may have filled already: its parent's fills are written now, whatever happens next.
  await writeFills(rt, current, fillsOf(await childrenOf(rt.db, id)));
  await onProgress(id);
  return rt.clock.now() + SETTLE_AFTER_MS;
}

/** Writes the parent's fills when they changed; true when they did. */
async function writeFills(rt: Runtime, parent: ParentRecord, fills: { filled: string; notional: string }) {
  const same =
    compareDecimal(fills.filled, parent.filled_base) === 0 &&
    compareDecimal(fills.notional, parent.filled_notional) === 0;
  if (same) return false;
  await writeParentFills(rt.db, parent.id, fills.filled, fills.notional, new Date(rt.clock.now()));
  return true;
}

/** No slice left and every child settled: the parent is done; what is still unfilled is reported, not chased. */
async function complete(rt: Runtime, parent: ParentRecord, onProgress: OnParentProgress): Promise<undefined> {
  const done = await completeWithEvent(rt, parent);
  if (done) {
    await rt.audit.append({
      action: "parent_order.completed",
      actor: requesterOf(parent),
      subject: parent.ref_id,
      detail: { parent_order_id: parent.id, filled_base: done.filled_base },
    });
    await onProgress(parent.id);
  }
  return undefined;
}

/**
 * Moves the parent to COMPLETED with its `parent_order.completed` event, in one transaction; the
 * parent as it ends, or undefined when it was no longer WORKING. The market's trades (for its
 * execution quality) are read from the service first: never inside the transaction.
 */
async function completeWithEvent(rt: Runtime, parent: ParentRecord): Promise<ParentRecord | undefined> {
  const trades = await marketTradesOf(rt, parent.market);
  const at = new Date(rt.clock.now());
  return rt.db.transaction().execute(async (tx) => {
    if (!(await moveParent(tx, parent.id, ["WORKING"], "COMPLETED", at))) return undefined;
    const done = (await parentOfId(tx, parent.id))!;
    const data: ParentOrderCompletedData = {
      parent_order: viewOf(done, await childrenOf(tx, parent.id), trades, at.toISOString()),
    };
    await recordEvent(tx, { type: "parent_order.completed", at, data });
    return done;
  });
}

/**
 * Slice `slice.n`: its share plus what earlier slices left unfilled, never more than what is
 * left, at the touch capped by the limit price. Nothing left to ask: SKIPPED.
 */
async function sendChild(rt: Runtime, parent: ParentRecord, slice: ChildRecord, filled: string): Promise<void> {
  const amount = childAmount(parent.base_amount, parent.slices, slice.n, filled);
  if (amount === "0") {
    await updateChild(rt.db, parent.id, slice.n, { status: "SKIPPED" });
    return;
  }
  const [[, ticker] = []] = await tickersOf(rt, [parent.market as Order["market"]]);
  const touch = { bid: amountIfSet(ticker?.best_bid?.price), ask: amountIfSet(ticker?.best_ask?.price) };
  const price = childPrice(parent.side as Order["side"], parent.limit_price, touch);
  const request = childRequest(parent, slice.n, amount, price);
  const at = new Date(rt.clock.now());
  const entry = await rt.db.transaction().execute(async (tx) => {
    // Still working, and held so (a row lock on PostgreSQL): a pause or a cancel lands before this
    // child is written, and then nothing is sent, or after, and then it is a child in flight.
    const held = await tx
      .updateTable("parent_orders")
      .set({ updated_at: at.toISOString() })
      .where("id", "=", parent.id)
      .where("status", "=", "WORKING")
      .executeTakeFirst();
    if (Number(held.numUpdatedRows) !== 1) return undefined;
    const written = await beginEntry(tx, {
      kind: "order",
      refId: request.ref_id,
      userEmail: parent.requested_by,
      userRole: parent.requested_role,
      profileId: parent.profile_id,
      request,
      valueUsd: divideDecimalDown(multiplyDecimal(parent.value_usd, amount), parent.base_amount, 2),
      approvalId: parent.approval_id,
      arrivalMid: midOf(touch),
      parentOrderId: parent.id,
      at,
    });
    await updateChild(tx, parent.id, slice.n, {
      status: "SENDING",
      base_amount: amount,
      price,
      sent_at: at.toISOString(),
    });
    return written;
  });
  if (!entry) return;
  await sendEntry(rt, parent, entry);
  await settleChild(rt, parent, { ...slice, status: "SENDING" });
}

/** The child as the order it is: a LIMIT IOC under `<parent ref_id>-<n>`. */
const childRequest = (parent: ParentRecord, n: number, amount: string, price: string) => ({
  market: parent.market as Order["market"],
  side: parent.side as Order["side"],
  type: "LIMIT" as const,
  time_in_force: "IOC" as const,
  base_amount: amount,
  price,
  ref_id: childRefId(parent.ref_id, n),
});

/** The mid between the touches, when both are known: the child's arrival mid. */
const midOf = (touch: { bid?: string; ask?: string }): string | null =>
  touch.bid && touch.ask ? midpointDecimal(touch.bid, touch.ask) : null;

/** Sends a journaled child (again, under the same ref_id, when an earlier pass may have sent it). */
async function sendEntry(rt: Runtime, parent: ParentRecord, entry: JournalEntry): Promise<void> {
  const create = storedCreate("order", entry.profile_id, entry.request);
  await sendOnce(rt, requesterOf(parent), create, entry, {
    valueUsd: null,
    approvalId: parent.approval_id,
  });
}

/**
 * A child sent and not yet settled: its journal entry decides whether it reached the service (a
 * pending one of a parent being worked is sent again under its ref_id; of one paused or
 * cancelled, the journal's sweep asks the service); then the service's order says what it filled.
 */
async function settleChild(rt: Runtime, parent: ParentRecord, child: ChildRecord): Promise<void> {
  let orderId = child.order_id;
  if (child.status === "SENDING") {
    let entry = await journalEntryOfRef(rt.db, "order", child.ref_id);
    if (entry?.status === "pending" && parent.status === "WORKING") {
      await sendEntry(rt, parent, entry);
      entry = await journalEntryOfRef(rt.db, "order", child.ref_id);
    }
    if (!entry || entry.status === "pending") return;
    if (entry.status !== "succeeded") {
      await updateChild(rt.db, parent.id, child.n, { status: "FAILED", problem_json: JSON.stringify(entry.problem) });
      return;
    }
    const record = entry.record as Partial<Order> | null;
    orderId = record?.id ?? entry.result_id;
    await updateChild(rt.db, parent.id, child.n, {
      order_id: orderId,
      ...fillOf(record),
      status: record?.status ?? "SUBMITTED",
    });
  }
  if (!orderId) return;
  const res = await rt.upstream
    .request({
      method: "GET",
      path: `/profiles/${encodeURIComponent(parent.profile_id)}/orders/${encodeURIComponent(orderId)}`,
    })
    .catch(() => undefined);
  if (res?.status !== 200) return;
  const order = res.body as Partial<Order>;
  await updateChild(rt.db, parent.id, child.n, { ...fillOf(order), status: order.status ?? child.status });
}

/** What the service's order filled, and at what average ("" before a fill), without trailing zeros. */
const fillOf = (order: Partial<Order> | null) => {
  const filled = amountIfSet(order?.amount_filled);
  const average = amountIfSet(order?.volume_weighted_average_price);
  return { amount_filled: filled ? trimZeros(filled) : "0", average_price: average ? trimZeros(average) : "" };
};

export const requesterOf = (parent: ParentRecord) => ({
  email: parent.requested_by,
  name: parent.requested_name,
  role: parent.requested_role as Role,
});
