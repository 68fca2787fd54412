import { formatAmount, formatCount, formatTickPrice, parseAmountInput } from "@/lib/shared/format";
import type { ParentOrder, ParentOrderRequest } from "@/lib/shared/parent-order";
import { slicesSentWords } from "@/lib/shared/parent-order-rows";
import { DECIMAL_PATTERN, multiplyDecimal, trimZeros } from "@/lib/spec/decimal";
import { isMarket, marketAssets } from "@/lib/spec/markets";
import { amount, priceIn } from "./describe-order";

/**
 * A TWAP parent order in the words of the ticket's review (issue 29): "Buy 2 BTC over 30 minutes
 * in 30 slices, never above 66,000.00 USD". Amounts, prices and counts through the one
 * formatting module.
 */

/** The units the ticket's duration is typed in, and how many seconds each is. */
export const DURATION_UNITS = { minutes: "60", seconds: "1", hours: "3600" } as const;
export type DurationUnit = keyof typeof DURATION_UNITS;

const unitWords = (n: number, one: string) => `${formatCount(n)} ${one}${n === 1 ? "" : "s"}`;

/**
 * A whole number of seconds as a person says it: "30 minutes", "1 hour 30 minutes",
 * "1 minute 30 seconds", "24 hours". Exact: nothing is rounded away.
 */
export function durationWords(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts = [
    hours > 0 && unitWords(hours, "hour"),
    minutes > 0 && unitWords(minutes, "minute"),
    (rest > 0 || seconds === 0) && unitWords(rest, "second"),
  ].filter(Boolean);
  return parts.join(" ");
}

/**
 * The duration as the schema takes it (whole seconds) from what the person typed in `unit`:
 * "30" minutes → 1800, "1.5" hours → 5400, "1,440" minutes → 86400. Exact decimal arithmetic;
 * text that is no amount is passed on unchanged, and a blank as undefined, for the schema to
 * name ("Duration must be a whole number").
 */
export function durationSecondsOf(typed: string, unit: DurationUnit): number | string | undefined {
  const text = parseAmountInput(typed);
  if (text === "") return undefined;
  if (!DECIMAL_PATTERN.test(text)) return text;
  // A count of seconds, not money: a number once the exact product is known.
  return Number(trimZeros(multiplyDecimal(text, DURATION_UNITS[unit])));
}

/** The number of slices as the schema takes it: "30" → 30; anything else unchanged for the schema to name. */
export function slicesOf(typed: string): number | string | undefined {
  const text = parseAmountInput(typed);
  if (text === "") return undefined;
  return /^\d{1,6}$/.test(text) ? Number(text) : text;
}

/** What the review says of a parent order, as the request asks it (or as the parent holds it). */
export type ParentWordsOf = Pick<
  ParentOrderRequest,
  "side" | "base_amount" | "duration_seconds" | "slices" | "limit_price"
> & {
  market: string;
};

/** A market's base and quote assets; a market the spec does not name, by its code. */
export const assetsOf = (market: string) => marketAssets(market) ?? { base_asset: market, quote_asset: "" };

/** "Buy 2 BTC over 30 minutes in 30 slices, never above 66,000.00 USD" (a sell: "never below"). */
export function describeParentOrder(r: ParentWordsOf): string {
  const { base_asset: base, quote_asset: quote } = assetsOf(r.market);
  const side = r.side === "BUY" ? "Buy" : "Sell";
  const bound = r.side === "BUY" ? "never above" : "never below";
  return `${side} ${amount(r.base_amount)} ${base} over ${durationWords(r.duration_seconds)} in ${unitWords(r.slices, "slice")}, ${bound} ${priceIn(quote)(r.limit_price)}`;
}

/** How often a slice goes: "one every minute", "about one every 8.6 seconds" (undefined until both are known). */
export function sliceEvery(durationSeconds: number | string | undefined, slices: number | string | undefined) {
  if (typeof durationSeconds !== "number" || typeof slices !== "number" || !Number.isInteger(slices) || slices < 1)
    return undefined;
  if (!Number.isInteger(durationSeconds) || durationSeconds <= 0) return undefined;
  if (durationSeconds % slices === 0) return `one every ${durationWords(durationSeconds / slices)}`;
  // Not whole seconds apart: the schedule spaces them to the millisecond; said to the tenth.
  const each = (durationSeconds / slices).toLocaleString("en-US", { maximumFractionDigits: 1 });
  return `about one every ${each} seconds`;
}

/**
 * An average price (or a mid, a VWAP) finer than the market trades, as the ladder writes prices:
 * to the market's tick ("65,005.92"); a market the spec does not name, to the cent at least.
 */
export const tickPrice = (value: string | null | undefined, market: string): string =>
  isMarket(market) ? formatTickPrice(value ?? undefined, market) : formatAmount(value ?? undefined, { min: 2 });

/** How far a parent has come: "Filled 0.1 of 0.2 BTC at avg 60,010.00 USD; 3 of 6 slices sent." */
export function parentProgressWords(p: ParentOrder): string {
  const { base_asset: base, quote_asset: quote } = assetsOf(p.market);
  const avg = p.average_price ? ` at avg ${tickPrice(p.average_price, p.market)} ${quote}` : "";
  return `Filled ${amount(p.filled_base)} of ${amount(p.base_amount)} ${base}${avg}; ${slicesSentWords(p)}.`;
}
