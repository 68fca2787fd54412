import { MARKETS, type Market, type OrderSide } from "@/lib/spec";
import { BookSide } from "./book";
import { TradeStats } from "./stats";
import type { EngineOrder } from "./types";

/** One market's book, its waiting stops and its trades. */
export interface MarketState {
  bids: BookSide<EngineOrder>;
  asks: BookSide<EngineOrder>;
  /** Untriggered sell stops, highest stop price first, then by arrival. */
  stops: EngineOrder[];
  stats: TradeStats;
}

/** An empty state for every market the service lists. */
export function openMarkets(): Map<Market, MarketState> {
  const markets = new Map<Market, MarketState>();
  for (const market of MARKETS) {
    markets.set(market, { bids: new BookSide("BUY"), asks: new BookSide("SELL"), stops: [], stats: new TradeStats() });
  }
  return markets;
}

/** The side of the book an order of `side` rests on. */
export const ownSide = (state: MarketState, side: OrderSide) => (side === "BUY" ? state.bids : state.asks);

/** The side of the book an order of `side` takes from. */
export const oppositeSide = (state: MarketState, side: OrderSide) => (side === "BUY" ? state.asks : state.bids);
