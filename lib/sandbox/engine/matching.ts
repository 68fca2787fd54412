import { BASE_AMOUNT_SCALE, MARKET_DETAILS, type Market, type OrderStatus } from "@/lib/spec";
import { divDown, min, mul } from "./amounts";
import type { BookSide } from "./book";
import type { Ledger } from "./ledger";
import { oppositeSide, ownSide, type MarketState } from "./market";
import type { EngineOrder } from "./types";

const ONE_BASE_UNIT = 10n ** 10n; // 1e-8 at the engine's 18-place scale

/** What matching needs of the exchange around it. */
export interface Venue {
  readonly ledger: Ledger;
  now(): number;
  market(market: Market): MarketState;
  /** Records a change of the order, for the store and the order's listeners. */
  changed(order: EngineOrder): void;
  close(order: EngineOrder, status: OrderStatus): void;
  /** Queues a triggered stop for matching. */
  queue(order: EngineOrder): void;
}

/** Runs an accepted order: a stop waits for its price; anything else trades, then rests or closes. */
export function execute(order: EngineOrder, venue: Venue): void {
  const state = venue.market(order.market);
  const isStop = order.type === "STOP_MARKET" || order.type === "STOP_LIMIT";
  if (isStop && !order.isTriggered) {
    const last = state.stats.last?.price;
    if (last === undefined || last > order.stopPrice!) return restStop(order, state, venue);
    order.isTriggered = true;
  }
  const opposite = oppositeSide(state, order.side);
  if (order.type === "POST_ONLY_LIMIT" && crosses(order, opposite)) return venue.close(order, "REJECTED");
  if (order.timeInForce === "FOK" && !canFillEntirely(order, opposite)) return venue.close(order, "CANCELLED");

  const stoppedBySelfMatch = match(order, state, venue);
  if (isDone(order, state)) return venue.close(order, "FILLED");
  const takesOnly =
    order.type === "MARKET" || order.type === "STOP_MARKET" || order.timeInForce === "IOC" || stoppedBySelfMatch;
  if (takesOnly) return venue.close(order, "CANCELLED");
  ownSide(state, order.side).add(order);
  markOpen(order, venue);
}

/** Puts an untriggered stop in the market's stop list, in the order they fire. */
export function restStop(order: EngineOrder, state: MarketState, venue: Venue): void {
  const i = state.stops.findIndex(
    (s) => s.stopPrice! < order.stopPrice! || (s.stopPrice === order.stopPrice && s.seq > order.seq),
  );
  state.stops.splice(i === -1 ? state.stops.length : i, 0, order);
  markOpen(order, venue);
}

function markOpen(order: EngineOrder, venue: Venue): void {
  if (order.status === "OPEN") return;
  order.status = "OPEN";
  venue.changed(order);
}

function acceptable(order: EngineOrder, price: bigint): boolean {
  if (order.type === "MARKET" || order.type === "STOP_MARKET") return true;
  return order.side === "BUY" ? price <= order.price : price >= order.price;
}

function crosses(order: EngineOrder, opposite: BookSide<EngineOrder>): boolean {
  const best = opposite.bestPrice();
  return best !== undefined && acceptable(order, best);
}

/** Base amount the order can still take at `price` (a market buy: what its budget buys). */
function wants(order: EngineOrder, price: bigint): bigint {
  if (order.quoteAmount !== null) return divDown(order.quoteAmount - order.filledQuote, price, BASE_AMOUNT_SCALE);
  return order.open;
}

function isDone(order: EngineOrder, state: MarketState): boolean {
  if (order.quoteAmount === null) return order.open === 0n;
  // A market buy is filled once what is left of its budget cannot buy one base unit.
  const lastPrice = state.stats.last?.price;
  const left = order.quoteAmount - order.filledQuote;
  return order.filledBase > 0n && lastPrice !== undefined && left < mul(lastPrice, ONE_BASE_UNIT);
}

/** A dry run of `match` for fill-or-kill: could the whole order fill now? */
function canFillEntirely(order: EngineOrder, opposite: BookSide<EngineOrder>): boolean {
  let need = order.open;
  for (const resting of opposite.inPriority()) {
    if (!acceptable(order, resting.price)) break;
    if (resting.customerId === order.customerId) {
      if (order.request.self_match_prevention_id) return false;
      continue;
    }
    need -= min(need, resting.open);
    if (need === 0n) return true;
  }
  return false;
}

/**
 * Takes liquidity at acceptable prices in price-time order. Against the same customer's
 * resting order: without a self-match prevention id the resting order is cancelled; with
 * one, the two do not match and the incoming order stops (returns true).
 */
function match(order: EngineOrder, state: MarketState, venue: Venue): boolean {
  const opposite = oppositeSide(state, order.side);
  for (let resting = opposite.best(); resting; resting = opposite.best()) {
    if (!acceptable(order, resting.price)) return false;
    if (resting.customerId === order.customerId) {
      if (order.request.self_match_prevention_id) return true;
      opposite.remove(resting.id);
      venue.close(resting, "CANCELLED");
      continue;
    }
    const amount = min(wants(order, resting.price), resting.open);
    if (amount === 0n) return false;
    fill(order, resting, amount, state, venue);
    if (resting.open === 0n) {
      opposite.remove(resting.id);
      venue.close(resting, "FILLED");
    }
    if (isDone(order, state)) return false;
  }
  return false;
}

/** One trade, at the resting (maker) order's price. */
function fill(taker: EngineOrder, maker: EngineOrder, amount: bigint, state: MarketState, venue: Venue): void {
  const price = maker.price;
  const notional = mul(amount, price);
  settleTrade(taker, maker, amount, notional, venue.ledger);
  for (const o of [taker, maker]) {
    o.filledBase += amount;
    o.filledQuote += notional;
    if (o.baseAmount !== null) o.open -= amount;
    venue.changed(o);
  }
  state.stats.record(price, amount, notional, venue.now());
  triggerStops(state, price, venue);
}

/** Pays each side out of its hold, to its recipient profile when it names one. */
function settleTrade(taker: EngineOrder, maker: EngineOrder, amount: bigint, notional: bigint, ledger: Ledger): void {
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[taker.market];
  const [buyer, seller] = taker.side === "BUY" ? [taker, maker] : [maker, taker];
  ledger.spendHeld(buyer.profileId, quote, notional);
  buyer.held -= notional;
  ledger.credit(buyer.request.recipient_profile_id ?? buyer.profileId, base, amount);
  ledger.spendHeld(seller.profileId, base, amount);
  seller.held -= amount;
  ledger.credit(seller.request.recipient_profile_id ?? seller.profileId, quote, notional);
}

/** Sell stops fire when the last trade price falls to their stop price. */
function triggerStops(state: MarketState, lastPrice: bigint, venue: Venue): void {
  while (state.stops.length > 0 && state.stops[0]!.stopPrice! >= lastPrice) {
    const stop = state.stops.shift()!;
    stop.isTriggered = true;
    venue.queue(stop);
    venue.changed(stop);
  }
}
