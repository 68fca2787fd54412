import "server-only";
import {
  isOpenParent,
  type ParentChildStatus,
  type ParentOrder,
  type ParentOrderChild,
  type ParentOrderStatus,
} from "@/lib/shared/parent-order";
import { marketVwapOf, slippageBps, VWAP_SCALE, type MarketTrade, type OrderQuality } from "@/lib/shared/order-quality";
import { addDecimal, compareDecimal, divideDecimalHalfUp, multiplyDecimal, trimZeros } from "@/lib/spec";
import { childrenOf, childrenOfMany, type ChildRecord, type ParentRecord } from "../db/parent-orders";
import { marketTradesOf } from "../quality/market-trades";
import type { Runtime } from "../runtime";

/** The parent as the API answers it: its children, and its execution quality over all of them. */
export async function parentView(rt: Runtime, parent: ParentRecord, trades?: MarketTrade[]): Promise<ParentOrder> {
  return viewOf(
    parent,
    await childrenOf(rt.db, parent.id),
    trades ?? (await marketTradesOf(rt, parent.market)),
    now(rt),
  );
}

/** Several parents, their children read at once and each market's trades once. */
export async function parentViews(rt: Runtime, parents: readonly ParentRecord[]): Promise<ParentOrder[]> {
  const children = await childrenOfMany(
    rt.db,
    parents.map((p) => p.id),
  );
  const markets = [...new Set(parents.map((p) => p.market))];
  const trades = new Map(await Promise.all(markets.map(async (m) => [m, await marketTradesOf(rt, m)] as const)));
  return parents.map((p) => viewOf(p, children.get(p.id) ?? [], trades.get(p.market) ?? [], now(rt)));
}

const now = (rt: Runtime) => new Date(rt.clock.now()).toISOString();

export function viewOf(stored: ParentRecord, children: ChildRecord[], trades: MarketTrade[], at: string): ParentOrder {
  const parent = withFillsOf(stored, children);
  return {
    id: parent.id,
    ref_id: parent.ref_id,
    profile_id: parent.profile_id,
    market: parent.market,
    side: parent.side as ParentOrder["side"],
    base_amount: parent.base_amount,
    limit_price: parent.limit_price,
    strategy: "TWAP",
    duration_seconds: parent.duration_seconds,
    slices: parent.slices,
    status: parent.status as ParentOrderStatus,
    requested_by: parent.requested_by,
    created_at: parent.created_at,
    approval_id: parent.approval_id,
    value_usd: parent.value_usd,
    filled_base: parent.filled_base,
    average_price: averageOf(parent.filled_notional, parent.filled_base) ?? "",
    started_at: parent.started_at,
    ends_at: parent.ends_at,
    children: children.map(childView),
    quality: parentQuality(parent, trades, at),
  };
}

/** The children's fills added up: the parent's filled amount and its notional. */
export function fillsOf(children: readonly ChildRecord[]): { filled: string; notional: string } {
  let filled = "0";
  let notional = "0";
  for (const c of children) {
    if (compareDecimal(c.amount_filled || "0", "0") <= 0) continue;
    filled = addDecimal(filled, c.amount_filled);
    notional = addDecimal(notional, multiplyDecimal(c.amount_filled, c.average_price || "0"));
  }
  return { filled, notional };
}

/**
 * The parent with its fills read off `children`, not off its own columns: the worker writes a
 * child's fill a step before the parent's, and a read between the two must not show the parent
 * behind the children listed under it.
 */
export function withFillsOf(parent: ParentRecord, children: readonly ChildRecord[]): ParentRecord {
  const { filled, notional } = fillsOf(children);
  return { ...parent, filled_base: filled, filled_notional: notional };
}

const childView = (c: ChildRecord): ParentOrderChild => ({
  n: c.n,
  ref_id: c.ref_id,
  order_id: c.order_id,
  scheduled_at: c.scheduled_at,
  sent_at: c.sent_at,
  base_amount: c.base_amount,
  price: c.price,
  status: c.status as ParentChildStatus,
  amount_filled: c.amount_filled,
  average_price: c.average_price,
});

/** Notional over amount, to VWAP_SCALE; null without an amount. */
const averageOf = (notional: string, amount: string): string | null =>
  compareDecimal(amount, "0") > 0 ? trimZeros(divideDecimalHalfUp(notional, amount, VWAP_SCALE)) : null;

/**
 * A parent's execution quality over all its children: its fills against the mid when it started,
 * and the market's VWAP over its life (from its start, or its creation while it waited, to its
 * end, or now while it may still send).
 */
export function parentQuality(parent: ParentRecord, trades: MarketTrade[], at: string): OrderQuality {
  const fillVwap = averageOf(parent.filled_notional, parent.filled_base);
  const windowStart = parent.started_at ?? parent.created_at;
  const windowEnd = isOpenParent(parent.status as ParentOrderStatus) ? at : parent.updated_at;
  return {
    order_id: parent.id,
    arrival_mid: parent.arrival_mid,
    arrival_at: parent.arrival_mid ? parent.started_at : null,
    filled: parent.filled_base,
    fill_vwap: fillVwap,
    slippage_bps: slippageBps(parent.side as ParentOrder["side"], parent.arrival_mid, fillVwap),
    market_vwap: marketVwapOf(trades, windowStart, windowEnd),
    window_start: windowStart,
    window_end: windowEnd,
  };
}
