import type { Execution } from "./service-shapes";

/** A point of the price chart: the last trade price of one second. */
export interface PricePoint {
  /** Unix seconds, the chart's time step. */
  time: number;
  price: string;
}

/**
 * Two ids as strings, never as numbers (the service's match numbers and execution ids are
 * alphanumeric): a shorter id first, as a counter's id is, then character by character.
 */
export const compareIds = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** The time of a trade in ms; a trade without a readable time counts as the oldest. */
const timeOf = (trade: Pick<Execution, "executed_at">) => {
  const ms = Date.parse(trade.executed_at);
  return Number.isNaN(ms) ? -Infinity : ms;
};

/** Oldest first: by executed_at, then by match number as a string. */
export const byTradeTime = (a: Execution, b: Execution): number =>
  timeOf(a) - timeOf(b) || compareIds(String(a.match_number ?? ""), String(b.match_number ?? "")) || 0;

/** The latest of a market's recent executions (listed in any order), or undefined before the first. */
export const latestTrade = (executions: readonly Execution[]): Execution | undefined =>
  executions.reduce<Execution | undefined>(
    (latest, t) => (!latest || byTradeTime(t, latest) > 0 ? t : latest),
    undefined,
  );

/**
 * The chart's points from a market's recent executions (any order): oldest first, one per
 * second, the last trade of that second, since the chart needs strictly rising times. A trade
 * without a readable time or price is left out: it has no place on the chart.
 */
export function pricePoints(executions: readonly Execution[]): PricePoint[] {
  const points: PricePoint[] = [];
  for (const trade of executions.toSorted(byTradeTime)) {
    const ms = Date.parse(trade.executed_at);
    if (Number.isNaN(ms) || !trade.price) continue;
    const time = Math.floor(ms / 1000);
    if (points.at(-1)?.time === time) points[points.length - 1] = { time, price: trade.price };
    else points.push({ time, price: trade.price });
  }
  return points;
}
