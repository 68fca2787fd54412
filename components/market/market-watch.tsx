"use client";

import dynamic from "next/dynamic";
import { useId, useRef, useState } from "react";
import { useOfferedMarkets } from "@/lib/client/use-markets";
import type { Market } from "@/lib/spec/enums";
import { marketLabel } from "@/lib/spec/markets";
import { inputClass } from "../ui/field";
import { Skeleton } from "../ui/skeleton";
import { MARKET_WATCH_HEIGHT } from "./market-view-slot";

/** The chart and the ladder load after the page, in their own chunk, as beside the ticket. */
const MarketView = dynamic(() => import("./market-view").then((m) => m.MarketView), {
  ssr: false,
  loading: () => <Skeleton className="h-full" />,
});

/**
 * The market for those who read /orders without trading (approvers, ops, viewers): the same
 * chart and depth ladder as beside the ticket, with a market to choose, read-only (a price
 * picked on the ladder fills no ticket). Its height is fixed from the first paint.
 */
export function MarketWatch() {
  const markets = useOfferedMarkets();
  const [chosen, setChosen] = useState<Market>("BTCUSD");
  const market = markets.includes(chosen) ? chosen : (markets[0] ?? chosen);
  const noTicket = useRef<HTMLElement>(null);
  const id = useId();
  return (
    <section aria-label="Market" data-testid="market-watch" className="space-y-2">
      <div className="flex h-11 items-center gap-2 text-sm">
        <label htmlFor={id} className="font-medium">
          Market
        </label>
        <select
          id={id}
          value={market}
          onChange={(e) => setChosen(e.target.value as Market)}
          className={`${inputClass(false)} w-40`}
        >
          {markets.map((m) => (
            <option key={m} value={m}>
              {marketLabel(m)}
            </option>
          ))}
        </select>
      </div>
      <div className={MARKET_WATCH_HEIGHT}>
        <MarketView market={market} ticketPart={noTicket} />
      </div>
    </section>
  );
}
