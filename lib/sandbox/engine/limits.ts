import type { CreateOrderRequest, Market } from "@/lib/spec";
import { divRound, formatTrimmed, mul, parseAmount } from "./amounts";
import { oppositeSide, type MarketState } from "./market";
import { problems } from "./problems";

/** The published service's largest order values, in the quote currency. */
const MAX_MARKET_NOTIONAL = parseAmount("500000");
const MAX_LIMIT_NOTIONAL = (market: Market) =>
  parseAmount(market === "BTCUSD" || market === "ETHUSD" ? "1500000" : "1000000");
/** "Taker orders will be rejected if price deviates 15% from midpoint." */
const BAND_PERCENT = 15n;

/**
 * What the service refuses before accepting an order: a notional past its cap (MARKET 500,000;
 * LIMIT 1,500,000 on BTCUSD and ETHUSD, 1,000,000 elsewhere) and a taker limit order priced more
 * than 15% from the mid. Both are 403 problems with the figures in `meta`.
 */
export function checkServiceLimits(request: CreateOrderRequest, state: MarketState): void {
  const bid = state.bids.bestPrice();
  const marketLike = request.type === "MARKET" || request.type === "STOP_MARKET";
  const base = request.base_amount ? parseAmount(request.base_amount) : 0n;
  const priced = request.type === "STOP_MARKET" ? request.stop_price : request.price;
  const notional =
    request.type === "MARKET"
      ? request.side === "BUY"
        ? parseAmount(request.quote_amount!)
        : mul(base, bid ?? 0n)
      : mul(base, parseAmount(priced!));
  const cap = marketLike ? MAX_MARKET_NOTIONAL : MAX_LIMIT_NOTIONAL(request.market);
  if (notional > cap) {
    throw problems.notionalTooLarge(request.market, request.type, formatTrimmed(notional), formatTrimmed(cap));
  }
  checkPriceBand(request, state);
}

/**
 * The taker price band, a rule of limit orders: it applies to a LIMIT order (any time in force)
 * that would take liquidity now, and looks at the order's OWN limit price, however little of the
 * book it would reach. A resting order, a post-only order (refused if it crosses) and a stop (not
 * yet a taker) are not banded; nor is a MARKET order, which has no price of its own (it executes
 * at the best price available), only its 500,000 cap.
 */
function checkPriceBand(request: CreateOrderRequest, state: MarketState): void {
  if (request.type !== "LIMIT") return;
  const buy = request.side === "BUY";
  const price = parseAmount(request.price!);
  const best = oppositeSide(state, request.side).bestPrice();
  const takes = best !== undefined && (buy ? best <= price : best >= price);
  if (!takes) return;
  const bid = state.bids.bestPrice();
  const ask = state.asks.bestPrice();
  // One side empty: the side the order takes from is the only price there is.
  const mid = bid !== undefined && ask !== undefined ? (bid + ask) / 2n : best;
  const band = (mid * BAND_PERCENT) / 100n;
  const [low, high] = [mid - band, mid + band];
  if (price >= low && price <= high) return;
  const deviation = divRound((price > mid ? price - mid : mid - price) * 100n, mid, 2);
  throw problems.priceBand({
    market: request.market,
    price: formatTrimmed(price),
    mid: formatTrimmed(mid),
    band_percent: `${BAND_PERCENT}`,
    deviation_percent: formatTrimmed(deviation),
    min_price: formatTrimmed(low),
    max_price: formatTrimmed(high),
  });
}
