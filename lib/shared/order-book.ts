import { addDecimal, compareDecimal, DECIMAL_PATTERN, multiplyDecimal, subtractDecimal } from "@/lib/spec/decimal";
import type { BookLevel, OrderBook } from "./service-shapes";
import { levelPrice } from "./ticker";

/** How many rows of each side the ladder shows (levels and gap markers together). */
export const LADDER_DEPTH = 10;

/**
 * A jump between neighbouring levels is a gap when it is more than GAP_TICKS ticks and more
 * than GAP_STEPS times the book's usual step (its smallest step between levels, or the
 * spread): a maker quoting every 65 ticks is not full of gaps, a bid at 30,000 under bids
 * near 65,000 is.
 */
export const GAP_TICKS = 5;
export const GAP_STEPS = 4;

export interface LadderLevel extends BookLevel {
  /** The amount from the best price down to this level, in the base asset. */
  total: string;
  /** The distance in price from the level before it (nearer the spread), when that jump is a gap. */
  gapBefore?: string;
}

export interface Ladder {
  /** Best (lowest) first. */
  asks: LadderLevel[];
  /** Best (highest) first. */
  bids: LadderLevel[];
  /** Best ask minus best bid, when both sides have orders. */
  spread?: string;
  /**
   * The depth the bars are drawn against: the larger side's total up to its first gap, so the
   * depth near the price stays visible beside a far 306 BTC level (which draws full width).
   */
  barScale?: string;
}

/** A side's levels that have a price and an amount to show, whatever else the service sent. */
const shown = (levels: readonly BookLevel[] | null | undefined): BookLevel[] =>
  (levels ?? []).filter(
    (l) => Boolean(levelPrice(l)) && typeof l.amount === "string" && DECIMAL_PATTERN.test(l.amount),
  );

const distance = (a: string, b: string) => (compareDecimal(a, b) >= 0 ? subtractDecimal(a, b) : subtractDecimal(b, a));
const larger = (a: string, b: string) => (compareDecimal(a, b) >= 0 ? a : b);

/** The book's usual step: the smallest distance between neighbouring levels on either side, or the spread. */
function usualStep(sides: BookLevel[][], spread: string | undefined): string | undefined {
  const steps = sides.flatMap((levels) => levels.slice(1).map((l, i) => distance(l.price, levels[i]!.price)));
  if (spread) steps.push(spread);
  const positive = steps.filter((s) => compareDecimal(s, "0") > 0);
  return positive.reduce<string | undefined>((min, s) => (!min || compareDecimal(s, min) < 0 ? s : min), undefined);
}

/** Running totals and gaps of a side's levels, best first, exactly, within `depth` rows (a gap takes a row). */
function sideOf(levels: readonly BookLevel[], depth: number, gapOver: string | undefined): LadderLevel[] {
  let total = "0";
  let rows = 0;
  const out: LadderLevel[] = [];
  for (const [i, level] of levels.entries()) {
    const jump = i > 0 ? distance(level.price, levels[i - 1]!.price) : undefined;
    const gap = jump && gapOver && compareDecimal(jump, gapOver) > 0 ? jump : undefined;
    rows += gap ? 2 : 1;
    if (rows > depth) break;
    total = addDecimal(total, level.amount);
    out.push(gap ? { ...level, total, gapBefore: gap } : { ...level, total });
  }
  return out;
}

/** The side's total up to (not past) its first gap. */
const nearTotal = (side: LadderLevel[]): string | undefined => {
  const firstGap = side.findIndex((l) => l.gapBefore);
  return (firstGap === -1 ? side.at(-1) : side[firstGap - 1])?.total;
};

/**
 * The top `depth` rows of each side of the book, with cumulative totals, the gaps where prices
 * jump, the spread, and the depth the bars are drawn against. `tick` is the market's price step.
 */
export function ladderOf(book: Pick<OrderBook, "bids" | "asks">, depth = LADDER_DEPTH, tick = "0.01"): Ladder {
  const [bids, asks] = [shown(book.bids), shown(book.asks)];
  const [bestBid, bestAsk] = [bids[0], asks[0]];
  const spread = bestBid && bestAsk ? subtractDecimal(bestAsk.price, bestBid.price) : undefined;
  const step = usualStep([bids, asks], spread);
  const gapOver = step && larger(multiplyDecimal(tick, String(GAP_TICKS)), multiplyDecimal(step, String(GAP_STEPS)));
  const ladder = { asks: sideOf(asks, depth, gapOver), bids: sideOf(bids, depth, gapOver), spread };
  const near = [nearTotal(ladder.asks), nearTotal(ladder.bids)].filter((t): t is string => Boolean(t));
  return near.length > 0 ? { ...ladder, barScale: near.reduce(larger) } : ladder;
}

/** How much of the bar a level's running total fills, 0 to 1 (drawing, not money: a number is fine). */
export const barShare = (total: string, scale: string | undefined): number =>
  scale ? Math.min(1, Number(total) / Math.max(Number(scale), 1e-18)) : 0;
