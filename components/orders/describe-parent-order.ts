import { formatAmount, formatTickPrice, parseAmountInput } from "@/lib/shared/format";
import type { ParentOrder } from "@/lib/shared/parent-order";
import { durationWords } from "@/lib/shared/parent-order-words";
import { slicesSentWords } from "@/lib/shared/parent-order-rows";
import { DECIMAL_PATTERN, multiplyDecimal, trimZeros } from "@/lib/spec/decimal";
import { isMarket, marketAssets } from "@/lib/spec/markets";
import { amount } from "@/lib/shared/describe-order";

/**
 * The ticket's "Work over time" inputs read as the request takes them, and a parent's progress in
 * words. The sentence that states a parent order is lib/shared/parent-order-words.ts's.
 */

/** The units the ticket's duration is typed in, and how many seconds each is. */
export const DURATION_UNITS = { minutes: "60", seconds: "1", hours: "3600" } as const;
export type DurationUnit = keyof typeof DURATION_UNITS;

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

/** A market's base and quote assets; a market the spec does not name, by its code. */
export const assetsOf = (market: string) => marketAssets(market) ?? { base_asset: market, quote_asset: "" };

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
