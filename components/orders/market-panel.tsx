"use client";

import { formatAmount } from "@/lib/client/format";
import { useBalances, useTicker } from "@/lib/client/queries";
import type { Market } from "@/lib/spec/enums";
import { MARKET_DETAILS } from "@/lib/spec/markets";

/** Best bid and ask, last trade, and the chosen profile's balances in the market's two assets. */
export function MarketPanel({ market, profileId, notional }: { market: Market; profileId: string; notional?: string }) {
  const ticker = useTicker(market);
  const balances = useBalances(profileId || undefined);
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[market];
  const t = ticker.data;
  const balance = (asset: string) =>
    balances.data?.find((b) => b.asset === asset)?.available ?? (balances.data ? "0" : undefined);
  const cell = (label: string, value: string | undefined, tone = "") => (
    <div>
      <dt className="text-xs text-ink-muted">{label}</dt>
      <dd className={`min-h-5 font-mono text-sm ${tone}`}>{value ?? "…"}</dd>
    </div>
  );
  return (
    <dl className="grid grid-cols-3 gap-x-4 gap-y-2 rounded-md bg-surface-raised p-3" aria-live="polite">
      {cell(
        "Best bid",
        t && (t.best_bid.price === "0" ? "none" : formatAmount(t.best_bid.price, { min: 2 })),
        "text-buy",
      )}
      {cell(
        "Best ask",
        t && (t.best_ask.price === "0" ? "none" : formatAmount(t.best_ask.price, { min: 2 })),
        "text-sell",
      )}
      {cell(
        "Last trade",
        t && (t.last_execution.price === "0" ? "none" : formatAmount(t.last_execution.price, { min: 2 })),
      )}
      {cell(`${base} available`, profileId ? balance(base) && formatAmount(balance(base)) : "—")}
      {cell(`${quote} available`, profileId ? balance(quote) && formatAmount(balance(quote), { min: 2 }) : "—")}
      {cell(`Est. notional (${quote})`, notional ? formatAmount(notional, { min: 2, max: 2 }) : "—")}
    </dl>
  );
}
