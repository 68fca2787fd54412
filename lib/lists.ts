import { compareDecimalOrBlank } from "@/lib/client/sorting";
import type { Order } from "@/lib/spec/order";
import type { Transfer } from "@/lib/spec/transfer";

/**
 * The vocabulary of the dashboard's own list routes (GET /api/orders, GET /api/transfers),
 * shared by the back end that walks the service's pages and the tables that show them.
 */

/** A page of a list route. */
export interface ListPage<T> {
  items: T[];
  /** The next page's cursor, or null on the last page. */
  next_cursor: string | null;
  /** Records read from the service for this page. */
  scanned: number;
  /** True when the walk stopped at `scan_cap` records read: more may match further on (follow next_cursor). */
  truncated: boolean;
  scan_cap: number;
}

export type SortDirection = "asc" | "desc";

/**
 * Sorts an order column takes. Each compares one asset only once a market is chosen:
 * amounts of different markets are in different assets and do not compare.
 */
export const ORDER_SORTS = ["amount", "price", "filled"] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

/** Sorts a transfer column takes; amounts compare once an asset is chosen. */
export const TRANSFER_SORTS = ["amount"] as const;
export type TransferSort = (typeof TRANSFER_SORTS)[number];

/**
 * Exact order of two decimal strings in `dir`, blanks (a market order's price) always last.
 * Equal values keep the service's order (Array.prototype.sort is stable).
 */
export function byDecimal<T>(value: (record: T) => string, dir: SortDirection): (a: T, b: T) => number {
  const sign = dir === "asc" ? 1 : -1;
  return (a, b) => {
    const x = value(a);
    const y = value(b);
    if (!x || !y) return x === y ? 0 : x ? -1 : 1;
    return sign * compareDecimalOrBlank(x, y);
  };
}

/**
 * An order column's sort. Amounts: the base amount, or a market buy's quote amount, so within
 * one market the base-asset amounts come first, then the quote-asset ones, each sorted.
 */
export function orderCompare(sort: OrderSort, dir: SortDirection): (a: Order, b: Order) => number {
  switch (sort) {
    case "amount": {
      const amounts = byDecimal<Order>((o) => o.base_amount || o.quote_amount, dir);
      return (a, b) => Number(!a.base_amount) - Number(!b.base_amount) || amounts(a, b);
    }
    case "price":
      return byDecimal((o) => o.price, dir);
    case "filled":
      return byDecimal((o) => o.amount_filled, dir);
  }
}

export function transferCompare(_sort: TransferSort, dir: SortDirection): (a: Transfer, b: Transfer) => number {
  return byDecimal((t) => t.amount, dir);
}
