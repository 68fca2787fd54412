import type { Row } from "@tanstack/react-table";
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

/** Order of two ISO 8601 times; a missing or unreadable time sorts first. */
export function compareTime(a: unknown, b: unknown): number {
  const x = typeof a === "string" ? Date.parse(a) : NaN;
  const y = typeof b === "string" ? Date.parse(b) : NaN;
  const nx = Number.isNaN(x) ? -Infinity : x;
  const ny = Number.isNaN(y) ? -Infinity : y;
  return nx === ny ? 0 : nx < ny ? -1 : 1;
}

/** Column sorting functions for DataTable: amounts never become JS numbers. */
export const decimalSorting = <T>(a: Row<T>, b: Row<T>, id: string) =>
  compareDecimalOrBlank(a.getValue(id), b.getValue(id));
export const timeSorting = <T>(a: Row<T>, b: Row<T>, id: string) => compareTime(a.getValue(id), b.getValue(id));
