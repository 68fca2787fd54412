"use client";

import { useQuery } from "@tanstack/react-query";
import type { JournalEntry } from "@/lib/journal";
import type { Market } from "@/lib/spec/enums";
import type { Order } from "@/lib/spec/order";
import type { Transfer } from "@/lib/spec/transfer";
import { api, query } from "./api";

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
export interface Ticker {
  market: Market;
  best_bid: BookLevel;
  best_ask: BookLevel;
  last_execution: BookLevel;
}
export interface Page<T> {
  items: T[];
  next_page_cursor: string;
}

export const keys = {
  profiles: ["profiles"] as const,
  balances: (profileId: string) => ["balances", profileId] as const,
  ticker: (market: string) => ["ticker", market] as const,
  orders: (filters: object) => ["orders", filters] as const,
  transfers: (filters: object) => ["transfers", filters] as const,
  activity: (filters: object) => ["activity", filters] as const,
  submitters: (kind: string, refIds: string[]) => ["submitters", kind, refIds] as const,
};

export function useProfiles() {
  return useQuery({
    queryKey: keys.profiles,
    queryFn: () => api<Page<Profile>>("/api/v2/profiles").then((p) => p.items),
    staleTime: 60_000,
  });
}

export function useBalances(profileId: string | undefined) {
  return useQuery({
    queryKey: keys.balances(profileId ?? ""),
    queryFn: () =>
      api<{ items: Balance[] }>(`/api/v2/profiles/${encodeURIComponent(profileId!)}/balances`).then((b) => b.items),
    enabled: Boolean(profileId),
    refetchInterval: 5_000,
  });
}

export function useTicker(market: string) {
  return useQuery({
    queryKey: keys.ticker(market),
    queryFn: () => api<Ticker>(`/api/v2/markets/${market}/ticker`),
    refetchInterval: 2_000,
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
