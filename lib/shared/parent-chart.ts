import { hasFill } from "./order-rows";
import { pricePoints, type PricePoint } from "./executions";
import type { ParentOrder } from "./parent-order";
import type { Execution } from "./service-shapes";

/**
 * What a TWAP parent's chart draws (issue 29): the market's price over the parent's life, from
 * the service's recent executions, and each child's fill as a marker at its average price. Pure:
 * the chart (components/parent-orders/parent-chart.tsx) only hands this to the library.
 */

/** A child's fill on the chart: when it was sent (unix seconds, the chart's step) and at what average price. */
export interface FillMarker {
  time: number;
  price: string;
  n: number;
  amount: string;
}

export interface ParentChartData {
  /** The line: one point a second, oldest first; every marker's second is one of them. */
  points: PricePoint[];
  markers: FillMarker[];
}

/** The parent's life: from its start (or its creation while it waited) to its end, in unix seconds; open-ended while it has none. */
export function lifeOf(p: Pick<ParentOrder, "started_at" | "created_at" | "ends_at">): { from: number; to?: number } {
  const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  return { from: seconds(p.started_at ?? p.created_at), ...(p.ends_at ? { to: seconds(p.ends_at) } : {}) };
}

/**
 * The market's trades within the parent's life (with a tenth of its duration either side, so the
 * price it started from and ended at shows), and each child that filled as a marker at its
 * average price. A child's second with no trade of the list (the service keeps only its latest
 * trades) gets a point at the child's own price, so its marker has a place on the line.
 */
export function parentChartData(
  p: Pick<ParentOrder, "started_at" | "created_at" | "ends_at" | "duration_seconds" | "children">,
  executions: readonly Execution[],
): ParentChartData {
  const { from, to } = lifeOf(p);
  const margin = Math.ceil(p.duration_seconds / 10);
  const inLife = (t: number) => t >= from - margin && (to === undefined || t <= to + margin);
  const markers: FillMarker[] = p.children
    .filter((c) => c.sent_at && hasFill(c.amount_filled) && c.average_price)
    .map((c) => ({
      time: Math.floor(Date.parse(c.sent_at!) / 1000),
      price: c.average_price,
      n: c.n,
      amount: c.amount_filled,
    }))
    .filter((m) => !Number.isNaN(m.time))
    .sort((a, b) => a.time - b.time || a.n - b.n);
  const byTime = new Map(pricePoints(executions).flatMap((point) => (inLife(point.time) ? [[point.time, point]] : [])));
  for (const m of markers) if (!byTime.has(m.time)) byTime.set(m.time, { time: m.time, price: m.price });
  return { points: [...byTime.values()].sort((a, b) => a.time - b.time), markers };
}
