import { addDecimal, compareDecimal, divideDecimalDown, multiplyDecimal } from "./decimal";
import type { Market } from "./enums";
import { MARKET_DETAILS } from "./markets";

/**
 * What an amount is worth in USD, from the service's own prices: a crypto asset at the mid
 * of its USD market; EUR and SGD, which no market of the service quotes against USD, by the
 * cross of BTC's mids (EUR in USD = mid BTCUSD / mid BTCEUR; SGD likewise with BTCSGD).
 * Exact decimals throughout; USD values are kept to 8 decimals, rounded down.
 */

/** The mid of each market whose book has both sides (see `midOf`). */
export type Mids = Partial<Record<Market, string>>;

const SCALE = 8;

/** Best bid and best ask halved; one side alone when the other is empty; undefined with neither. */
export function midOf(bestBid: string | undefined, bestAsk: string | undefined): string | undefined {
  const bid = bestBid && compareDecimal(bestBid, "0") > 0 ? bestBid : undefined;
  const ask = bestAsk && compareDecimal(bestAsk, "0") > 0 ? bestAsk : undefined;
  if (bid && ask) return divideDecimalDown(addDecimal(bid, ask), "2", SCALE);
  return bid ?? ask;
}

/** The markets whose mids value `asset` in USD. */
export function marketsToValue(asset: string): Market[] {
  if (asset === "USD") return [];
  if (asset === "EUR") return ["BTCUSD", "BTCEUR"];
  if (asset === "SGD") return ["BTCUSD", "BTCSGD"];
  const market = `${asset}USD` as Market;
  return market in MARKET_DETAILS ? [market] : [];
}

/** One unit of `asset` in USD, or undefined when the prices it needs are missing. */
export function usdPriceOf(asset: string, mids: Mids): string | undefined {
  if (asset === "USD") return "1";
  const [usdMarket, crossMarket] = marketsToValue(asset);
  const usd = usdMarket && mids[usdMarket];
  if (!usd) return undefined;
  if (!crossMarket) return usd;
  const cross = mids[crossMarket];
  return cross && compareDecimal(cross, "0") > 0 ? divideDecimalDown(usd, cross, SCALE) : undefined;
}

/** `amount` of `asset` in USD, or undefined when its price is missing. */
export function valueInUsd(amount: string, asset: string, mids: Mids): string | undefined {
  const price = usdPriceOf(asset, mids);
  return price === undefined ? undefined : divideDecimalDown(multiplyDecimal(amount, price), "1", SCALE);
}

/** What an order asks for, in the fields that say how much. */
export interface OrderAmounts {
  market: Market;
  side: "BUY" | "SELL";
  type: string;
  base_amount?: string;
  quote_amount?: string;
  price?: string;
  stop_price?: string;
}

/**
 * An order's notional in its quote currency: price times amount, the quote amount of a market
 * buy, a market sell's amount at the mid, a stop market's amount at its stop price.
 */
export function orderNotional(order: OrderAmounts, mid: string | undefined): string | undefined {
  const base = order.base_amount;
  if (order.type === "MARKET") {
    if (order.side === "BUY") return order.quote_amount;
    return base && mid ? multiplyDecimal(base, mid) : undefined;
  }
  const price = order.type === "STOP_MARKET" ? order.stop_price : order.price;
  return base && price ? multiplyDecimal(base, price) : undefined;
}

/**
 * An order's notional in USD, or undefined when a price it needs is missing. When its quote
 * currency has no USD price (say, BTCEUR while BTCEUR's own book is empty), its base amount is
 * valued at the base asset's USD price instead.
 */
export function orderValueInUsd(order: OrderAmounts, mids: Mids): string | undefined {
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[order.market];
  const notional = orderNotional(order, mids[order.market]);
  const byQuote = notional === undefined ? undefined : valueInUsd(notional, quote, mids);
  return byQuote ?? (order.base_amount ? valueInUsd(order.base_amount, base, mids) : undefined);
}
