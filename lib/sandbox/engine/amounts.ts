import { fromUnits, toUnits, trimZeros } from "@/lib/spec";

/**
 * The engine keeps every amount and price as a bigint at one fixed scale, so a fill's
 * notional (base to 8 places times a price to at most 4) is exact, and a transfer keeps
 * the 18 places the interface allows. Nothing here ever becomes a JS number.
 */
export const SCALE = 18;
const ONE = 10n ** BigInt(SCALE);

export const parseAmount = (text: string): bigint => toUnits(text, SCALE);

/** Product of two scaled amounts, exact whenever the true product fits the scale. */
export const mul = (a: bigint, b: bigint): bigint => (a * b) / ONE;

/** a / b rounded down to `places` decimals (used to size a market buy from its budget). */
export function divDown(a: bigint, b: bigint, places: number): bigint {
  const step = 10n ** BigInt(SCALE - places);
  return ((a * ONE) / b / step) * step;
}

/** a / b rounded half-even to `places` decimals. */
export function divRound(a: bigint, b: bigint, places: number): bigint {
  const step = 10n ** BigInt(SCALE - places);
  const exact = a * ONE;
  const unit = b * step;
  const q = exact / unit;
  const r = exact % unit;
  const twice = 2n * r;
  const roundUp = twice > unit || (twice === unit && q % 2n === 1n);
  return (roundUp ? q + 1n : q) * step;
}

/** Formats at exactly `places` decimals ("0.00000000"); the value must already be on that step. */
export function formatFixed(units: bigint, places: number): string {
  const step = 10n ** BigInt(SCALE - places);
  return fromUnits(units / step, places);
}

/** Formats with trailing zeros removed ("1250.5", "0.00065", "3"). */
export const formatTrimmed = (units: bigint): string => trimZeros(fromUnits(units, SCALE));

export const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
