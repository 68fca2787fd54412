import type { Execution } from "./queries";

/** A point of the price chart: the last trade price of one second. */
export interface PricePoint {
  /** Unix seconds, the chart's time step. */
  time: number;
  price: string;
}

const orderOfTrades = (a: Execution, b: Execution) =>
  Date.parse(a.executed_at) - Date.parse(b.executed_at) || Number(a.match_number) - Number(b.match_number);

/**
 * The chart's points from a market's recent executions (any order): oldest first, one per
 * second, the last trade of that second, since the chart needs strictly rising times.
 */
export function pricePoints(executions: readonly Execution[]): PricePoint[] {
  const points: PricePoint[] = [];
  for (const trade of executions.toSorted(orderOfTrades)) {
    const time = Math.floor(Date.parse(trade.executed_at) / 1000);
    if (points.at(-1)?.time === time) points[points.length - 1] = { time, price: trade.price };
    else points.push({ time, price: trade.price });
  }
  return points;
}
