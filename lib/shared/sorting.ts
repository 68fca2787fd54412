import { compareDecimal, DECIMAL_PATTERN } from "@/lib/spec/decimal";

/**
 * Exact order of two decimal strings from the service. A blank or malformed value
 * (a market order's price is "") sorts before every number instead of throwing.
 */
export function compareDecimalOrBlank(a: unknown, b: unknown): number {
  const x = typeof a === "string" && DECIMAL_PATTERN.test(a) ? a : undefined;
  const y = typeof b === "string" && DECIMAL_PATTERN.test(b) ? b : undefined;
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? -1 : 1;
  return compareDecimal(x, y);
}
