"use client";

import { useQueries } from "@tanstack/react-query";
import type { Market } from "@/lib/spec/enums";
import { balancesQuery, tickerQuery } from "./queries";

/*
 * Many queries at once, for the Balances page. Apart from lib/client/queries.ts so that
 * react-query's useQueries stays out of the pages that do not use it (the orders page's budget).
 */

/** Every listed profile's balances, in the order of `profileIds` (the same cache as useBalances). */
export function useBalancesOfProfiles(profileIds: readonly string[]) {
  return useQueries({
    queries: profileIds.map(balancesQuery),
    combine: (results) => ({
      byProfile: results.map((r) => r.data),
      error: results.find((r) => r.error)?.error ?? null,
    }),
  });
}

/** Several markets' tickers at once, by market (the same cache as useTicker). */
export function useTickers(markets: readonly Market[]) {
  return useQueries({
    queries: markets.map(tickerQuery),
    combine: (results) => ({
      byMarket: new Map(markets.map((m, i) => [m, results[i]!.data])),
      pending: results.some((r) => r.isPending),
    }),
  });
}
