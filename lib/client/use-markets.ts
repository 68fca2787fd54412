"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { Market } from "@/lib/spec/enums";
import { api } from "./api";
import { useHydrated } from "./hydrated";
import { marketsOffered } from "../shared/markets-offered";
import { keys, type ListedMarket } from "./queries";

/*
 * The service's market list, for the ticket and the orders table only: apart from
 * lib/client/queries.ts so that the pages that offer no market do not load it.
 */

/**
 * The markets the service lists (GET /markets). It may lack one the spec names (the spec's
 * GOLDUSD, the service's PAXGUSD) and list others: see marketsOffered (lib/shared/markets-offered.ts).
 */
export function useMarkets() {
  return useQuery({
    queryKey: keys.markets,
    queryFn: () =>
      api<{ markets?: ListedMarket[] | null }>("/api/v2/markets").then((r) =>
        (r.markets ?? []).filter((m) => typeof m?.market === "string"),
      ),
    staleTime: 10 * 60_000,
  });
}

/**
 * The markets to offer (marketsOffered): the spec's while hydrating, since the server rendered
 * without the service's list, and a table that hydrates late may find it already in the cache.
 */
export function useOfferedMarkets(): readonly Market[] {
  const hydrated = useHydrated();
  const { data } = useMarkets();
  const listed = hydrated ? data : undefined;
  return useMemo(() => marketsOffered(listed), [listed]);
}
