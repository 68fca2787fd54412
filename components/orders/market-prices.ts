"use client";

import { useTickers } from "@/lib/client/desk-queries";
import { useOrderBook, useTicker } from "@/lib/client/queries";
import { ladderOf } from "@/lib/shared/order-book";
import type { Market } from "@/lib/spec/enums";
import { marketsToValueOrder, midsOf, referencePriceOf, type Mids } from "@/lib/spec/valuation";

/**
 * A market's best bid and ask as the ticket's panel shows them: the top of the order book the
 * ladder draws (the same cached answer, so the two never disagree), the ticker's until the book
 * has loaded; its last trade; and their mid, by the controls' rule (referencePriceOf).
 */
export function useBestPrices(market: Market) {
  const t = useTicker(market).data;
  const book = useOrderBook(market).data;
  const top = book && ladderOf(book, 1);
  const bid = top ? top.bids[0] : t?.best_bid;
  const ask = top ? top.asks[0] : t?.best_ask;
  const last = t?.last_execution;
  return {
    shown: Boolean(top || t),
    tickerShown: t !== undefined,
    bid,
    ask,
    last,
    mid: referencePriceOf({ best_bid: bid, best_ask: ask, last_execution: last }),
  };
}

/**
 * The mids the ticket's order is worth its figure at: its own market's from the best prices the
 * panel shows beside it, and those that price its assets in USD (BTC/USD for a EUR order) from
 * their tickers.
 */
export function useOrderMids(market: Market): Mids {
  const own = useBestPrices(market).mid;
  const others = useTickers(marketsToValueOrder(market).filter((m) => m !== market));
  return { ...midsOf(others.byMarket), [market]: own };
}
