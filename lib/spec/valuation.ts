import { addDecimal, amountIfSet, compareDecimal, divideDecimalDown, multiplyDecimal } from "./decimal";
import type { Market } from "./enums";
import { MARKET_DETAILS } from "./markets";

/**
 * What an amount is worth in USD, from the service's own prices: a crypto asset at the
 * reference price of its USD market; EUR and SGD, which no market of the service quotes
 * against USD, by the cross of BTC's (EUR in USD = BTCUSD / BTCEUR; SGD likewise with
 * BTCSGD). The one rule for the controls on the server and the Balances page in the browser.
 * Exact decimals; USD values are kept to 8 decimals, rounded down (a page rounds them to the
 * cent for showing, which gives the same cents as rounding the exact value).
 */

/** Each market's reference price (see `referencePriceOf`); a market without one is absent. */
export type Mids = Partial<Record<Market, string>>;

const SCALE = 8;

/** A ticker's prices, as the service answers GET /markets/{market}/ticker ("0", null or absent for none). */
export interface TickerPrices {
  best_bid?: { price?: string | null } | null;
  best_ask?: { price?: string | null } | null;
  last_execution?: { price?: string | null } | null;
}

const positive = (price: string | null | undefined) => amountIfSet(price);

/**
 * A market's reference price: the mid of a two-sided book, (best bid + best ask) / 2; with a
 * side empty, the last execution's price; with no trade yet, the side there is.
 */
export function referencePriceOf(ticker: TickerPrices | undefined): string | undefined {
  const bid = positive(ticker?.best_bid?.price);
  const ask = positive(ticker?.best_ask?.price);
  if (bid && ask) return divideDecimalDown(addDecimal(bid, ask), "2", SCALE);
  return positive(ticker?.last_execution?.price) ?? bid ?? ask;
}

/** The reference prices of the markets whose tickers are given. */
export function midsOf(tickers: Iterable<readonly [Market, TickerPrices | undefined]>): Mids {
  const mids: Mids = {};
  for (const [market, ticker] of tickers) {
    const price = referencePriceOf(ticker);
    if (price !== undefined) mids[market] = price;
  }
  return mids;
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

/**
 * `amount` of `asset` in USD, or undefined when its price is missing. A cross is divided once,
 * amount × BTCUSD ÷ BTCEUR, so no rounded rate is multiplied up.
 */
export function valueInUsd(amount: string, asset: string, mids: Mids): string | undefined {
  if (asset === "USD") return divideDecimalDown(amount, "1", SCALE);
  const [usdMarket, crossMarket] = marketsToValue(asset);
  const usd = usdMarket && mids[usdMarket];
  if (!usd) return undefined;
  const cross = crossMarket ? mids[crossMarket] : "1";
  if (!cross || compareDecimal(cross, "0") <= 0) return undefined;
  return divideDecimalDown(multiplyDecimal(amount, usd), cross, SCALE);
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
 * An order's value in its quote currency, valued conservatively: its quantity times the larger
 * of its own price (the limit price; a stop market's stop price) and the market's mid, since a
 * sell limited far below the market (or a stop that triggers at once) fills at the market, not
 * at its own price. A market buy is worth its quote amount; a market sell its amount at the mid.
 * A market with no price at all (an empty book, no trade yet) leaves the order's own price.
 * Undefined when neither is known.
 */
export function orderNotional(order: OrderAmounts, mid: string | undefined): string | undefined {
  if (order.type === "MARKET" && order.side === "BUY") return order.quote_amount;
  const base = order.base_amount;
  const own = order.type === "MARKET" ? undefined : order.type === "STOP_MARKET" ? order.stop_price : order.price;
  const price = own && mid ? (compareDecimal(own, mid) > 0 ? own : mid) : (own ?? mid);
  return base && price ? multiplyDecimal(base, price) : undefined;
}

/**
 * An order's value in USD (orderNotional, converted), or undefined when a price it needs is
 * missing. When its quote currency has no USD price (say, BTCEUR while BTCEUR's own book is
 * empty), its base amount is valued at the base asset's USD price instead.
 */
export function orderValueInUsd(order: OrderAmounts, mids: Mids): string | undefined {
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[order.market];
  const notional = orderNotional(order, mids[order.market]);
  const byQuote = notional === undefined ? undefined : valueInUsd(notional, quote, mids);
  return byQuote ?? (order.base_amount ? valueInUsd(order.base_amount, base, mids) : undefined);
}

/** The markets whose mids value an order: its own (for the mid) and those that price its assets in USD. */
export function marketsToValueOrder(market: Market): Market[] {
  const { base_asset, quote_asset } = MARKET_DETAILS[market];
  return [...new Set([market, ...marketsToValue(quote_asset), ...marketsToValue(base_asset)])].sort();
}
