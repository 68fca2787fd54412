import { addDecimal, DECIMAL_PATTERN, subtractDecimal } from "@/lib/spec/decimal";
import type { BookLevel, OrderBook } from "./service-shapes";
import { levelPrice } from "./ticker";

/** How many levels of each side the ladder shows. */
export const LADDER_DEPTH = 10;

export interface LadderLevel extends BookLevel {
  /** The amount from the best price down to this level, in the base asset. */
  total: string;
}

export interface Ladder {
  /** Best (lowest) first. */
  asks: LadderLevel[];
  /** Best (highest) first. */
  bids: LadderLevel[];
  /** Best ask minus best bid, when both sides have orders. */
  spread?: string;
}

/** A side's levels that have a price and an amount to show, whatever else the service sent. */
const shown = (levels: readonly BookLevel[] | null | undefined): BookLevel[] =>
  (levels ?? []).filter(
    (l) => Boolean(levelPrice(l)) && typeof l.amount === "string" && DECIMAL_PATTERN.test(l.amount),
  );

/** Running totals of a side's levels, best first, exactly. */
function withTotals(levels: readonly BookLevel[], depth: number): LadderLevel[] {
  let total = "0";
  return levels.slice(0, depth).map((level) => {
    total = addDecimal(total, level.amount);
    return { ...level, total };
  });
}

/** The top `depth` levels of each side of the book, with cumulative totals and the spread. */
export function ladderOf(book: Pick<OrderBook, "bids" | "asks">, depth = LADDER_DEPTH): Ladder {
  const [bids, asks] = [shown(book.bids), shown(book.asks)];
  const [bestBid, bestAsk] = [bids[0], asks[0]];
  return {
    asks: withTotals(asks, depth),
    bids: withTotals(bids, depth),
    spread: bestBid && bestAsk ? subtractDecimal(bestAsk.price, bestBid.price) : undefined,
  };
}
