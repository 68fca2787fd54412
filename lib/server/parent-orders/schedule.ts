import "server-only";
import { BASE_AMOUNT_SCALE, compareDecimal, divideDecimalDown, multiplyDecimal, subtractDecimal } from "@/lib/spec";
import type { ParentOrderAsked } from "@/lib/shared/parent-order";

/**
 * A TWAP parent's schedule and each child's terms, pure (exact decimals, times in ms):
 * - slice n (1 to N) is due at start + (n − 1) × duration / N, so N slices spread evenly and the
 *   schedule ends one slice's time after the last;
 * - by slice n the parent aims to have filled n/N of the whole (rounded down to the smallest base
 *   amount; the last slice aims at the whole). A child asks for that target less what is filled,
 *   so what earlier slices left unfilled goes with it, and never for more than what is left: what
 *   is filled can never pass the whole;
 * - a child is priced at the touch (the best ask for a buy, the best bid for a sell), capped by
 *   the limit price: a buy never above it, a sell never below it.
 */

export const sliceDueAt = (startMs: number, durationSeconds: number, slices: number, n: number): number =>
  startMs + Math.floor(((n - 1) * durationSeconds * 1000) / slices);

export const scheduleEndsAt = (startMs: number, durationSeconds: number): number => startMs + durationSeconds * 1000;

/** What the parent aims to have filled once slice n has gone. */
export function targetBy(base: string, slices: number, n: number): string {
  if (n >= slices) return base;
  return divideDecimalDown(multiplyDecimal(base, String(n)), String(slices), BASE_AMOUNT_SCALE);
}

/** What slice n's child asks for, given what is filled: "0" when there is nothing to ask. */
export function childAmount(base: string, slices: number, n: number, filled: string): string {
  const wanted = subtractDecimal(targetBy(base, slices, n), filled);
  const left = subtractDecimal(base, filled);
  const amount = compareDecimal(wanted, left) <= 0 ? wanted : left;
  return compareDecimal(amount, "0") > 0 ? amount : "0";
}

/** The child's limit price: the touch on its side, capped by the parent's limit; the limit without a touch. */
export function childPrice(
  side: ParentOrderAsked["side"],
  limit: string,
  touch: { bid?: string; ask?: string },
): string {
  const price = side === "BUY" ? touch.ask : touch.bid;
  if (!price) return limit;
  if (side === "BUY") return compareDecimal(price, limit) <= 0 ? price : limit;
  return compareDecimal(price, limit) >= 0 ? price : limit;
}

/** True when `price` breaks the cap: above it on a buy, below it on a sell. */
export const worseThanCap = (side: ParentOrderAsked["side"], price: string, limit: string): boolean =>
  side === "BUY" ? compareDecimal(price, limit) > 0 : compareDecimal(price, limit) < 0;
