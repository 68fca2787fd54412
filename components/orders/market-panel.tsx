"use client";

import dynamic from "next/dynamic";
import { useRef, useSyncExternalStore, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { formatAmount, formatAsset } from "@/lib/shared/format";
import { levelPrice } from "@/lib/shared/ticker";
import { useBalances, type BookLevel } from "@/lib/client/queries";
import type { Market } from "@/lib/spec/enums";
import { MARKET_DETAILS } from "@/lib/spec/markets";
import { MARKET_VIEW_SLOT_ID } from "../market/market-view-slot";
import { Skeleton } from "../ui/skeleton";
import { useBestPrices } from "./market-prices";

/** The chart and the ladder load after the ticket, in their own chunk (the page's budget). */
const MarketView = dynamic(() => import("../market/market-view").then((m) => m.MarketView), {
  ssr: false,
  loading: () => <Skeleton className="h-full" />,
});

/**
 * Best bid and ask, last trade, the chosen profile's balances in the market's two assets, and
 * what the order is worth in USD, by the rule the controls weigh it with (at the mid of the
 * best bid and ask shown). Best bid and ask are read off the order book the ladder draws
 * (useBestPrices), so the two never disagree.
 * The market's chart and depth ladder go to the page's market view slot (beside the ticket,
 * not inside it): a portal keeps them in the ticket's form context, so a price picked on the
 * ladder fills the ticket's price field (components/market/ticket-price-pick.ts).
 */
export function MarketPanel({
  market,
  profileId,
  worthUsd,
}: {
  market: Market;
  profileId: string;
  /** What the order is worth in USD (estimateWorthUsd); null leaves the cell out (the review states it). */
  worthUsd: string | undefined | null;
}) {
  const prices = useBestPrices(market);
  const balances = useBalances(profileId || undefined);
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[market];
  const slot = useElementById(MARKET_VIEW_SLOT_ID);
  const panel = useRef<HTMLDListElement>(null);
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
      {/* A number never breaks: a long one ("25,000,000.00" and up) is set smaller instead. */}
      <dd
        className={`min-h-5 whitespace-nowrap font-mono tabular-nums ${(value?.length ?? 0) > 12 ? "text-xs leading-5" : "text-sm"} ${tone}`}
      >
        {value ?? "…"}
      </dd>
    </div>
  );
  const noProfile = <span className="font-sans text-xs text-ink-muted">Pick a profile</span>;
  const held = (asset: string) => (profileId ? balance(asset) && formatAsset(balance(asset), asset) : undefined);
  return (
    <>
      <dl
        ref={panel}
        className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-md bg-surface-raised p-3 sm:grid-cols-3"
        aria-live="polite"
      >
        {cell("Best bid", prices.shown ? price(prices.bid) : undefined, "text-buy")}
        {cell("Best ask", prices.shown ? price(prices.ask) : undefined, "text-sell")}
        {cell("Last trade", prices.tickerShown ? price(prices.last) : undefined)}
        {profileId ? cell(`${base} available`, held(base)) : cellNode(`${base} available`, noProfile)}
        {profileId ? cell(`${quote} available`, held(quote)) : cellNode(`${quote} available`, noProfile)}
        {worthUsd !== null && cell("Worth about (USD)", worthUsd ? formatAsset(worthUsd, "USD") : "—")}
      </dl>
      {slot && createPortal(<MarketView market={market} ticketPart={panel} />, slot)}
    </>
  );
}

/** A panel cell whose value is words, not a number. */
const cellNode = (label: string, value: ReactNode) => (
  <div className="min-w-0">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="min-h-5 text-sm">{value}</dd>
  </div>
);

const unchanging = () => () => {};
/** The element with this id once the page is in the browser (a portal needs a real node; none on the server). */
const useElementById = (id: string): HTMLElement | null =>
  useSyncExternalStore(
    unchanging,
    () => document.getElementById(id),
    () => null,
  );
