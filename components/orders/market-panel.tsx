"use client";

import dynamic from "next/dynamic";
import { useRef, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { formatAmount, formatAsset } from "@/lib/client/format";
import { levelPrice } from "@/lib/client/ticker";
import { useBalances, useTicker, type BookLevel } from "@/lib/client/queries";
import type { Market } from "@/lib/spec/enums";
import { MARKET_DETAILS } from "@/lib/spec/markets";
import { MARKET_VIEW_SLOT_ID } from "../market/market-view-slot";
import { Skeleton } from "../ui/skeleton";

/** The chart and the ladder load after the ticket, in their own chunk (the page's budget). */
const MarketView = dynamic(() => import("../market/market-view").then((m) => m.MarketView), {
  ssr: false,
  loading: () => <Skeleton className="h-full" />,
});

/**
 * Best bid and ask, last trade, and the chosen profile's balances in the market's two assets.
 * The market's chart and depth ladder go to the page's market view slot (beside the ticket,
 * not inside it): a portal keeps them in the ticket's form context, so a price picked on the
 * ladder fills the ticket's price field (components/market/ticket-price-pick.ts).
 */
export function MarketPanel({ market, profileId, notional }: { market: Market; profileId: string; notional?: string }) {
  const ticker = useTicker(market);
  const balances = useBalances(profileId || undefined);
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[market];
  const slot = useElementById(MARKET_VIEW_SLOT_ID);
  const panel = useRef<HTMLDListElement>(null);
  const t = ticker.data;
  const balance = (asset: string) =>
    balances.data?.find((b) => b.asset === asset)?.available ?? (balances.data ? "0" : undefined);
  // A level the service has nothing for (null, left out, or "0") reads "none", never a crash.
  const price = (level: BookLevel | null | undefined) => {
    const value = levelPrice(level);
    return value ? formatAmount(value, { min: 2 }) : "none";
  };
  const cell = (label: string, value: string | undefined, tone = "") => (
    <div className="min-w-0">
      <dt className="text-xs text-ink-muted">{label}</dt>
      {/* Big balances wrap rather than overflow the ticket. */}
      <dd className={`min-h-5 font-mono text-sm tabular-nums [overflow-wrap:anywhere] ${tone}`}>{value ?? "…"}</dd>
    </div>
  );
  return (
    <>
      <dl
        ref={panel}
        className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-md bg-surface-raised p-3 sm:grid-cols-3"
        aria-live="polite"
      >
        {cell("Best bid", t && price(t.best_bid), "text-buy")}
        {cell("Best ask", t && price(t.best_ask), "text-sell")}
        {cell("Last trade", t && price(t.last_execution))}
        {cell(`${base} available`, profileId ? balance(base) && formatAsset(balance(base), base) : "—")}
        {cell(`${quote} available`, profileId ? balance(quote) && formatAsset(balance(quote), quote) : "—")}
        {cell(`Est. notional (${quote})`, notional ? formatAsset(notional, quote) : "—")}
      </dl>
      {slot && createPortal(<MarketView market={market} ticketPart={panel} />, slot)}
    </>
  );
}

const unchanging = () => () => {};
/** The element with this id once the page is in the browser (a portal needs a real node; none on the server). */
const useElementById = (id: string): HTMLElement | null =>
  useSyncExternalStore(
    unchanging,
    () => document.getElementById(id),
    () => null,
  );
