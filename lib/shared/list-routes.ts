import { compareDecimalOrBlank } from "@/lib/shared/sorting";
import { amountIfSet } from "@/lib/spec/decimal";
import type { Order } from "@/lib/spec/order";
import type { Transfer } from "@/lib/spec/transfer";

/**
 * The vocabulary of the dashboard's own list routes (GET /api/orders, GET /api/transfers),
 * shared by the back end that walks the service's pages and the tables that show them.
 */

/**
 * A page of one of the dashboard's list routes (orders, transfers, activity, the audit trail):
 * the one page shape every table reads. The routes that walk the service's pages for filters
 * it lacks (orders, transfers) also say how much they read.
 */
export interface Page<T> {
  items: T[];
  /** The next page's cursor, or null on the last page. */
  next_cursor: string | null;
  /** Records read from the service for this page. */
  scanned?: number;
  /**
   * True when the back end applied filters the service does not (or cannot combine): `items`
   * are the matches among the `scanned` records read, the table's "matched N of M read".
   */
  walked?: boolean;
  /** True when the walk stopped at `scan_cap` records read: more may match further on (follow next_cursor). */
  truncated?: boolean;
  scan_cap?: number;
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
 * Newest first (`desc`) or oldest first by created_at, as the back end sorts: the service promises
 * no order of its own. Records of the same instant keep the order they came in (a stable sort).
 */
export function byCreatedAt<T extends { created_at: string }>(dir: SortDirection = "desc") {
  const sign = dir === "asc" ? 1 : -1;
  const at = (r: T) => {
    const ms = Date.parse(r.created_at);
    // A record without a readable time sorts after every dated one, either way.
    return Number.isNaN(ms) ? sign * Infinity : ms;
  };
  return (a: T, b: T): number => sign * (at(a) - at(b)) || 0;
}

/**
 * Exact order of two decimal strings in `dir`, blanks (a market order's price, "" or "0") always
 * last. Equal values keep the order they came in (Array.prototype.sort is stable).
 */
export function byDecimal<T>(value: (record: T) => string | undefined, dir: SortDirection): (a: T, b: T) => number {
  const sign = dir === "asc" ? 1 : -1;
  return (a, b) => {
    const x = value(a);
    const y = value(b);
    if (!x || !y) return x === y ? 0 : x ? -1 : 1;
    return sign * compareDecimalOrBlank(x, y);
  };
}

/**
 * An order column's sort, newest first among equals. Amounts: the base amount, or a market buy's
 * quote amount, so within one market the base-asset amounts come first, then the quote-asset
 * ones, each sorted.
 */
export function orderCompare(sort: OrderSort, dir: SortDirection): (a: Order, b: Order) => number {
  const newest = byCreatedAt<Order>();
  const by = (compare: (a: Order, b: Order) => number) => (a: Order, b: Order) => compare(a, b) || newest(a, b);
  switch (sort) {
    case "amount": {
      const base = (o: Order) => amountIfSet(o.base_amount);
      const amounts = byDecimal<Order>((o) => base(o) ?? amountIfSet(o.quote_amount), dir);
      return by((a, b) => Number(!base(a)) - Number(!base(b)) || amounts(a, b));
    }
    case "price":
      return by(byDecimal((o) => amountIfSet(o.price), dir));
    case "filled":
      return by(byDecimal((o) => o.amount_filled, dir));
  }
}

export function transferCompare(_sort: TransferSort, dir: SortDirection): (a: Transfer, b: Transfer) => number {
  const newest = byCreatedAt<Transfer>();
  const amounts = byDecimal<Transfer>((t) => t.amount, dir);
  return (a, b) => amounts(a, b) || newest(a, b);
}
