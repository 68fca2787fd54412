import { amountIfSet, compareDecimal, divideDecimalDown, multiplyDecimal } from "@/lib/spec/decimal";
import type { Order } from "@/lib/spec/order";
import { isOpenParent, isUnsettledChild, type ParentOrder, type ParentOrderChild } from "./parent-order";

/**
 * TWAP parent orders (issue 29) in the orders table: a parent is a row of its own and its
 * children (the service's orders under `<parent ref_id>-<n>`) are grouped beneath it, never
 * scattered among the other orders. Pure, so the grouping is tested without a browser.
 */

/** A child as the table shows it beneath its parent: the parent's record of it, the service's order over it when the page has one. */
export interface ChildLine extends ParentOrderChild {
  /** The service's order, when the page listed it: its status and fill are the service's own. */
  order?: Order;
}

/** A parent order's row, and the children it has sent, oldest first. */
export interface ParentRow {
  parent: ParentOrder;
  children: ChildLine[];
}

export const isParentRow = (row: object): row is ParentRow => "parent" in row && "children" in row;

export const parentRowKey = (p: Pick<ParentOrder, "id">): string => `parent:${p.id}`;

/** A child has gone to the service (or was refused by it): it has a time it was sent. */
export const wasSent = (c: Pick<ParentOrderChild, "sent_at">): boolean => c.sent_at !== null;

/** The orders table's filters a parent row answers to (GET /api/orders's names). */
export interface ParentFilters {
  profile_id?: string;
  market?: string;
  side?: string;
  type?: string;
  status?: string;
}

/**
 * Whether a parent belongs in the table under these filters: its profile, market and side;
 * its children are limit orders (a type filter of another type leaves it out); a status filter
 * matches the parent's own status (WORKING, COMPLETED, …) or one of its children's.
 */
export function parentMatches(p: ParentOrder, f: ParentFilters): boolean {
  if (f.profile_id && p.profile_id !== f.profile_id) return false;
  if (f.market && p.market !== f.market) return false;
  if (f.side && p.side !== f.side) return false;
  if (f.type && f.type !== "LIMIT") return false;
  if (f.status && p.status !== f.status && !p.children.some((c) => c.status === f.status)) return false;
  return true;
}

/** The child as the table shows it: the service's order, when the page has it, speaks for its status and fill. */
function lineOf(child: ParentOrderChild, order: Order | undefined): ChildLine {
  if (!order) return child;
  const average = amountIfSet(order.volume_weighted_average_price) ?? child.average_price;
  return {
    ...child,
    order,
    order_id: order.id,
    status: order.status,
    amount_filled: order.amount_filled,
    average_price: compareDecimal(order.amount_filled || "0", "0") > 0 ? average : child.average_price,
  };
}

/**
 * The table's rows with the parents among them: the held requests first (as before), then the
 * parents that match the filters (on the first page, newest first, as GET /api/parent-orders
 * lists them), each with the children it has sent, then the service's orders less every child of
 * a known parent, which is shown beneath its parent instead, on whichever page the service listed it.
 */
export function withParentRows<R extends object>(
  rows: readonly R[],
  parents: readonly ParentOrder[],
  {
    filters,
    firstPage,
    isOrder,
  }: { filters: ParentFilters; firstPage: boolean; isOrder: (row: R) => row is R & Order },
): (R | ParentRow)[] {
  if (parents.length === 0) return [...rows];
  const children = new Set(parents.flatMap((p) => p.children.map((c) => c.ref_id)));
  const isChild = (row: R) => isOrder(row) && Boolean(row.ref_id) && children.has(row.ref_id!);
  const listed = new Map<string, Order>();
  for (const row of rows) if (isChild(row)) listed.set((row as Order).ref_id!, row as Order);
  const held = rows.filter((row) => !isOrder(row));
  const orders = rows.filter((row) => isOrder(row) && !isChild(row));
  const parentRows: ParentRow[] = firstPage
    ? parents
        .filter((p) => parentMatches(p, filters))
        .map((parent) => ({
          parent,
          children: parent.children.filter(wasSent).map((c) => lineOf(c, listed.get(c.ref_id))),
        }))
    : [];
  return [...held, ...parentRows, ...orders];
}

/** How far a parent has filled, as a whole percentage rounded down (for drawing its bar only). */
export function filledPercent(p: Pick<ParentOrder, "filled_base" | "base_amount">): number {
  if (!amountIfSet(p.base_amount) || compareDecimal(p.base_amount, "0") <= 0) return 0;
  const percent = divideDecimalDown(multiplyDecimal(p.filled_base || "0", "100"), p.base_amount, 0);
  return Math.min(100, Number(percent));
}

/** "3 of 6 slices sent". */
export const slicesSentWords = (p: Pick<ParentOrder, "children" | "slices">): string =>
  `${p.children.filter(wasSent).length} of ${p.slices.toLocaleString("en-US")} slices sent`;

/**
 * Whether `incoming` is an older state of the parent than `shown`: a parent only moves on (a
 * closed one never reopens; children are sent, then settle, and fills only add up), and its
 * pushed state and a read of it may cross on the way. A pause or a resume changes none of these:
 * either state is the newer then.
 */
export function isOlderParent(incoming: ParentOrder, shown: ParentOrder): boolean {
  const progress = (p: ParentOrder) => [
    isOpenParent(p.status) ? 0 : 1,
    p.children.filter(wasSent).length,
    p.children.filter((c) => c.status !== "SCHEDULED" && !isUnsettledChild(c)).length,
  ];
  const [a, b] = [progress(incoming), progress(shown)];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return compareDecimal(incoming.filled_base || "0", shown.filled_base || "0") < 0;
}
