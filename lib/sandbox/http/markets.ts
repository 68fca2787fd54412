import { json, pathMarket } from "@/lib/server/http/toolkit";
import { MARKETS, MARKET_DETAILS } from "@/lib/spec";
import { divRound, formatTrimmed } from "../engine/amounts";
import { DAY, startOfUtcDay, type Summary } from "../engine/stats";
import type { Handler } from "./context";

const level = (l: { price: bigint; amount: bigint } | undefined) =>
  l ? { price: formatTrimmed(l.price), amount: formatTrimmed(l.amount) } : { price: "0", amount: "0" };

/** GET /v2/markets */
export const listMarkets: Handler = () => json({ markets: MARKETS.map((m) => MARKET_DETAILS[m]) });

/** GET /v2/markets/{market}/order-book: aggregated levels, best first. */
export const getOrderBook: Handler = ({ params, sandbox }) => {
  const market = pathMarket(params.market!);
  const { bids, asks } = sandbox.exchange.orderBook(market);
  return json({ market, bids: bids.map(level), asks: asks.map(level) });
};

const stats = (s: Summary | null) =>
  s && {
    open: formatTrimmed(s.open),
    high: formatTrimmed(s.high),
    low: formatTrimmed(s.low),
    volume: formatTrimmed(s.volume),
    volume_weighted_average_price: s.volume === 0n ? "0" : formatTrimmed(divRound(s.notional, s.volume, 8)),
    range: { begin: new Date(s.begin).toISOString(), end: new Date(s.end).toISOString() },
  };

/** GET /v2/markets/{market}/ticker */
export const getTicker: Handler = ({ params, sandbox }) => {
  const market = pathMarket(params.market!);
  const now = sandbox.now();
  const book = sandbox.exchange.orderBook(market, 1);
  const trades = sandbox.exchange.tradeStats(market);
  return json({
    market,
    best_bid: level(book.bids[0]),
    best_ask: level(book.asks[0]),
    last_execution: trades.last ? level(trades.last) : level(undefined),
    last_day: stats(trades.summary(now - DAY, now)),
    today: stats(trades.summary(startOfUtcDay(now), now)),
    snapshot_at: new Date(now).toISOString(),
  });
};

/** GET /v2/markets/{market}/recent-executions: the market's latest trades, newest first. */
export const listRecentExecutions: Handler = ({ params, sandbox }) => {
  const market = pathMarket(params.market!);
  const items = sandbox.exchange
    .tradeStats(market)
    .recent.toReversed()
    .map((t) => ({
      match_number: t.matchNumber,
      price: formatTrimmed(t.price),
      amount: formatTrimmed(t.amount),
      executed_at: new Date(t.at).toISOString(),
    }));
  return json({ items });
};
