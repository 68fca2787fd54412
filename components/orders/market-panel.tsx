"use client";

import dynamic from "next/dynamic";
import { useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { useFormContext } from "react-hook-form";
import { formatAmount, formatAsset } from "@/lib/client/format";
import { useBalances, useTicker } from "@/lib/client/queries";
import type { Market } from "@/lib/spec/enums";
import { MARKET_DETAILS } from "@/lib/spec/markets";
import { FIELD_LABELS, quantityRuleFor } from "@/lib/spec/order-rules";
import { MARKET_VIEW_SLOT_ID } from "../market/market-view-slot";
import type { TicketValues } from "./ticket-form";

/** The chart and the ladder load after the ticket, in their own chunk (the page's budget). */
const MarketView = dynamic(() => import("../market/market-view").then((m) => m.MarketView), {
  ssr: false,
  loading: () => (
    <div aria-hidden className="h-[40rem] animate-pulse rounded-lg border border-slate-200 bg-surface lg:h-[21rem]" />
  ),
});

/**
 * Best bid and ask, last trade, and the chosen profile's balances in the market's two assets.
 * The market's chart and depth ladder go to the page's market view slot (beside the ticket,
 * not inside it): a portal keeps them in the ticket's form, so a price picked on the ladder
 * fills the ticket's price field.
 */
export function MarketPanel({ market, profileId, notional }: { market: Market; profileId: string; notional?: string }) {
  const ticker = useTicker(market);
  const balances = useBalances(profileId || undefined);
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[market];
  const slot = useElementById(MARKET_VIEW_SLOT_ID);
  const pickPrice = useTicketPricePick();
  const t = ticker.data;
  const balance = (asset: string) =>
    balances.data?.find((b) => b.asset === asset)?.available ?? (balances.data ? "0" : undefined);
  const price = (value: string) => (value === "0" ? "none" : formatAmount(value, { min: 2 }));
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
        className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-md bg-surface-raised p-3 sm:grid-cols-3"
        aria-live="polite"
      >
        {cell("Best bid", t && price(t.best_bid.price), "text-buy")}
        {cell("Best ask", t && price(t.best_ask.price), "text-sell")}
        {cell("Last trade", t && price(t.last_execution.price))}
        {cell(`${base} available`, profileId ? balance(base) && formatAsset(balance(base), base) : "—")}
        {cell(`${quote} available`, profileId ? balance(quote) && formatAsset(balance(quote), quote) : "—")}
        {cell(`Est. notional (${quote})`, notional ? formatAsset(notional, quote) : "—")}
      </dl>
      {slot && createPortal(<MarketView market={market} onPickPrice={pickPrice} />, slot)}
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

/**
 * Fills the ticket's price from a price picked on the ladder: the limit price, or the stop
 * price of a stop-market order; a market order takes none. Answers what it did, in words.
 * Undefined outside the ticket's form.
 */
function useTicketPricePick(): ((price: string) => string) | undefined {
  const form = useFormContext<TicketValues>() as ReturnType<typeof useFormContext<TicketValues>> | null;
  if (!form) return undefined;
  return (price) => {
    const { type, side } = form.getValues();
    const field = (["price", "stop_price"] as const).find((f) => quantityRuleFor(type, side).required.includes(f));
    if (!field) return "A market order takes no price: choose a limit or stop type to use a price from the book.";
    // Checked now only once Review was pressed, as the ticket checks every field.
    form.setValue(field, price, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    return `${FIELD_LABELS[field]} set to ${formatAmount(price, { min: 2 })}.`;
  };
}
