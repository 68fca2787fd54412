"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import type { JournalEntry } from "@/lib/shared/journal-entry";
import { MARKET_POLL_MS } from "@/lib/shared/market-polling";
import type { Market } from "@/lib/spec/enums";
import type {
  Balance,
  BookLevel,
  Execution,
  ListedMarket,
  OrderBook,
  Profile,
  Ticker,
} from "@/lib/shared/service-shapes";
import type { Order } from "@/lib/spec/order";
import type { Transfer } from "@/lib/spec/transfer";
import { api, query } from "./api";
import { pollWhileDown } from "./live-status";

export type { Balance, BookLevel, Execution, ListedMarket, OrderBook, Profile, Ticker };

export const keys = {
  profiles: ["profiles"] as const,
  markets: ["markets"] as const,
  balances: (profileId: string) => ["balances", profileId] as const,
  ticker: (market: string) => ["ticker", market] as const,
  orderBook: (market: string) => ["order-book", market] as const,
  executions: (market: string) => ["recent-executions", market] as const,
  orders: (filters: object) => ["orders", filters] as const,
  /** One order or transfer, as a result card follows it. */
  order: (id: string) => ["orders", "one", id] as const,
  transfers: (filters: object) => ["transfers", filters] as const,
  transfer: (id: string) => ["transfers", "one", id] as const,
  activity: (filters: object) => ["activity", filters] as const,
  submitters: (kind: string, refIds: string[]) => ["submitters", kind, refIds] as const,
};

export function useProfiles() {
  return useQuery({
    queryKey: keys.profiles,
    queryFn: () => api<{ items: Profile[] }>("/api/v2/profiles").then((p) => p.items),
    staleTime: 60_000,
  });
}

/** One profile's balances, as useBalances and useBalancesOfProfiles share them in the cache. */
export const balancesQuery = (profileId: string) =>
  queryOptions({
    queryKey: keys.balances(profileId),
    queryFn: () =>
      api<{ items: Balance[] }>(`/api/v2/profiles/${encodeURIComponent(profileId)}/balances`).then((b) => b.items),
    enabled: Boolean(profileId),
    // Streamed (GET /api/events ?profiles=): polled only while the stream is down.
    refetchInterval: pollWhileDown(5_000),
  });

export function useBalances(profileId: string | undefined) {
  return useQuery(balancesQuery(profileId ?? ""));
}

/** One market's ticker, as useTicker and useTickers share it in the cache. */
export const tickerQuery = (market: string) =>
  queryOptions({
    queryKey: keys.ticker(market),
    queryFn: () => api<Ticker>(`/api/v2/markets/${market}/ticker`),
    refetchInterval: pollWhileDown(MARKET_POLL_MS.ticker),
  });

export function useTicker(market: string) {
  return useQuery(tickerQuery(market));
}

/*
 * The book and the trades poll while the page is visible (react-query pauses in a background
 * tab). The back end shares each answer among all screens for nearly a period, so more screens
 * do not mean more calls to the service (lib/shared/market-polling.ts).
 */

export function useOrderBook(market: Market) {
  return useQuery({
    queryKey: keys.orderBook(market),
    queryFn: () => api<OrderBook>(`/api/v2/markets/${market}/order-book`),
    refetchInterval: MARKET_POLL_MS["order-book"],
  });
}

export function useRecentExecutions(market: Market) {
  return useQuery({
    queryKey: keys.executions(market),
    queryFn: () => api<{ items: Execution[] }>(`/api/v2/markets/${market}/recent-executions`).then((r) => r.items),
    refetchInterval: MARKET_POLL_MS["recent-executions"],
  });
}

/** Who submitted each create, from the journal, by ref_id. */
export function useSubmitters(kind: "order" | "transfer", refIds: string[]) {
  const ids = [...new Set(refIds.filter(Boolean))].sort();
  return useQuery({
    queryKey: keys.submitters(kind, ids),
    queryFn: async () => {
      const page = await api<{ items: JournalEntry[] }>(`/api/activity${query({ kind, ref_ids: ids, limit: "200" })}`);
      return new Map(page.items.map((e) => [e.ref_id, e]));
    },
    enabled: ids.length > 0,
    staleTime: 30_000,
  });
}

export type { Order, Transfer };
