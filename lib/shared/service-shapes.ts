/**
 * The service's records as its public endpoints answer them and the dashboard passes them on
 * (profiles, balances, market data): read by the pages' queries (lib/client/queries.ts) and by
 * the pure helpers that shape them for a screen.
 */
import type { Market } from "@/lib/spec/enums";

export interface Profile {
  id: string;
  nickname: string;
  type: string;
}
export interface Balance {
  asset: string;
  available: string;
  trading: string;
}
export interface BookLevel {
  price: string;
  amount: string;
}
/**
 * A market's ticker. A level the service has nothing for (an empty side, no trade yet) may come
 * as null, be left out, or carry "0": read its price with levelPrice (lib/shared/ticker.ts).
 */
export interface Ticker {
  market: Market;
  best_bid?: BookLevel | null;
  best_ask?: BookLevel | null;
  last_execution?: BookLevel | null;
}
export interface OrderBook {
  market: Market;
  /** Aggregated levels, best first; an empty side may be an empty list, null or absent. */
  bids?: BookLevel[] | null;
  asks?: BookLevel[] | null;
}
/** A market as the service's GET /markets lists it: it may list markets the spec does not name. */
export interface ListedMarket {
  market: string;
  base_asset: string;
  quote_asset: string;
  tick_rate: string;
}
/** One trade of a market, as GET /markets/{market}/recent-executions lists it (newest first). */
export interface Execution {
  match_number: string;
  price: string;
  amount: string;
  executed_at: string;
}
