/**
 * How often a screen reads each kind of public market data. The back end keeps an answer
 * shared for nearly as long (lib/server/upstream/single-flight.ts), so however many screens
 * poll a market, the service is asked about once per period. The ticker's period is the live
 * watcher's (lib/server/live/watcher.ts), which reads it for the streams; screens poll it
 * themselves only while their stream is down.
 */
export const MARKET_POLL_MS = { "order-book": 1_000, "recent-executions": 2_000, ticker: 1_000 } as const;

export type MarketData = keyof typeof MARKET_POLL_MS;
