"use client";

import { useState } from "react";
import { problemOf } from "@/lib/client/api";
import { formatAmount, formatAsset, formatMarket } from "@/lib/shared/format";
import { DecimalAligned } from "../ui/decimal-aligned";
import { useBalancesOfProfiles, useTickers } from "@/lib/client/desk-queries";
import { useProfiles, type Balance, type Profile } from "@/lib/client/queries";
import { compareAssets, deskTotals, type AssetTotal } from "@/lib/shared/valuation";
import { marketsToValue, midsOf } from "@/lib/spec/valuation";
import { Card } from "../ui/card";
import { Bar, Bars, LoadingShape } from "../ui/loading-shape";
import { ProblemAlert } from "../ui/problem-alert";

/** Long amounts wrap inside their cell rather than push the page sideways. */
const NUMBER = "font-mono tabular-nums [overflow-wrap:anywhere]";
const usd = (value: string | undefined) => (value === undefined ? "no price" : formatAmount(value, { min: 2, max: 2 }));
/** A USD price as the mid gives it: at least cents, all its places (a mid may end in a half tick). */
const usdPrice = (value: string | undefined) =>
  value === undefined ? "no price" : formatAmount(value, { min: 2, max: 8 });

/**
 * The service's two amounts of a balance, named so neither reads as a profile (one profile is
 * called "Trading"): what can be spent or moved now, and what open orders hold.
 */
const AVAILABLE = "Available to use";
const HELD = "Held by open orders";

/**
 * Every profile's balances, and the desk's total per asset valued in USD. Their shape shows until
 * the totals and every profile's balances are in, then all of them at once, and they stay shown
 * while they refresh: the cards never jump as parts arrive (layout shift under 0.05).
 */
export function BalancesView() {
  const profiles = useProfiles();
  const list = profiles.data ?? [];
  const balances = useBalancesOfProfiles(list.map((p) => p.id));
  const loaded = balances.byProfile.filter((b): b is Balance[] => b !== undefined);
  const held = new Set(loaded.flat().map((b) => b.asset));
  const tickers = useTickers([...new Set([...held].flatMap(marketsToValue))].sort());
  const totals = deskTotals(loaded, midsOf(tickers.byMarket));
  const error = profiles.error ?? balances.error;
  const ready = profiles.isSuccess && loaded.length === list.length && !tickers.pending;
  // Once shown, a refresh (a new asset's price being fetched) never takes the page back to loading.
  const [shown, setShown] = useState(false);
  if (ready && !shown) setShown(true);

  return (
    <div className="space-y-6">
      {error && <ProblemAlert problem={problemOf(error)} title="Could not load the balances" />}
      {!shown && <BalancesShape profiles={profiles.data} />}
      {shown && (
        <Card
          title="Across profiles"
          actions={
            <p className="text-sm" data-testid="usd-total">
              <span className="text-ink-muted">Total value </span>
              <span className="font-mono font-semibold tabular-nums">{usd(totals.usdTotal)}</span>
              <span className="text-ink-muted"> USD</span>
            </p>
          }
        >
          <DeskTotals assets={totals.assets} />
          <p className="mt-3 text-xs text-ink-muted">
            Valued at mid prices, (best bid + best ask) / 2, or the last trade while a side of the book is empty: crypto
            on its USD market, EUR and SGD at the cross of {formatMarket("BTCUSD")} and {formatMarket("BTCEUR")} or{" "}
            {formatMarket("BTCSGD")}; each value to the cent.
            {totals.unpriced.length > 0 && ` No price now for ${totals.unpriced.join(", ")}: left out of the total.`}
          </p>
        </Card>
      )}
      {shown && (
        <div className="grid gap-6 md:grid-cols-2">
          {list.map((profile, i) => (
            <ProfileBalances key={profile.id} profile={profile} balances={balances.byProfile[i]} />
          ))}
        </div>
      )}
    </div>
  );
}

/** Rows the skeleton gives the desk's totals (the demo holds 13 assets) and each profile's balances. */
const SHAPE_ROWS = { desk: 10, profile: 6 } as const;

/**
 * The page's shape while it loads: the totals' card and a card per profile (their names once the
 * profiles are read), rows as bars, about the height the balances will take.
 */
function BalancesShape({ profiles }: { profiles: Profile[] | undefined }) {
  return (
    <LoadingShape label="Loading balances…" className="space-y-6">
      <Card title="Across profiles" actions={<Bar className="h-5 w-48" />}>
        <Bars count={SHAPE_ROWS.desk} />
        <Bar className="mt-4 h-8" />
      </Card>
      <div className="grid gap-6 md:grid-cols-2">
        {(profiles ?? [undefined, undefined]).map((p, i) => (
          <Card key={p?.id ?? i} title={p?.nickname ?? <Bar className="h-6 w-32" />}>
            <Bars count={SHAPE_ROWS.profile} gap="gap-3" />
          </Card>
        ))}
      </div>
    </LoadingShape>
  );
}

/** A table from tablets up; a card per asset on phones, where six columns cannot fit. */
function DeskTotals({ assets }: { assets: AssetTotal[] }) {
  return (
    <>
      <table className="hidden w-full text-sm md:table" aria-label="Balances across profiles">
        <thead>
          <tr className="border-b border-slate-200 text-xs text-ink-muted">
            <th scope="col" className="py-2 pr-3 text-left font-medium">
              Asset
            </th>
            {[AVAILABLE, HELD, "Total", "Price (USD)", "Value (USD)"].map((h) => (
              <th key={h} scope="col" className="px-3 py-2 text-right font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {assets.map((a) => (
            <tr key={a.asset} data-asset={a.asset}>
              <th scope="row" className="py-2 pr-3 text-left font-semibold">
                {a.asset}
              </th>
              <td className={`px-3 py-2 text-right ${NUMBER}`}>
                <DecimalAligned text={formatAsset(a.available, a.asset)} />
              </td>
              <td className={`px-3 py-2 text-right ${NUMBER}`}>
                <DecimalAligned text={formatAsset(a.trading, a.asset)} />
              </td>
              <td className={`px-3 py-2 text-right ${NUMBER}`}>
                <DecimalAligned text={formatAsset(a.total, a.asset)} />
              </td>
              <td className={`px-3 py-2 text-right text-ink-muted ${NUMBER}`}>{usdPrice(a.usdPrice)}</td>
              <td className={`px-3 py-2 text-right font-semibold ${NUMBER}`} data-testid="usd-value">
                {usd(a.usdValue)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-3 md:hidden" aria-label="Balances across profiles">
        {assets.map((a) => (
          <li key={a.asset} data-asset={a.asset} className="rounded-md bg-surface-raised p-3">
            <div className="flex items-baseline justify-between gap-3">
              <span className="font-semibold">{a.asset}</span>
              <span className="text-right">
                <span className={`font-semibold ${NUMBER}`} data-testid="usd-value">
                  {usd(a.usdValue)}
                </span>
                <span className="text-xs text-ink-muted"> USD</span>
              </span>
            </div>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
              {(
                [
                  [AVAILABLE, formatAsset(a.available, a.asset)],
                  [HELD, formatAsset(a.trading, a.asset)],
                  ["Total", formatAsset(a.total, a.asset)],
                  ["Price (USD)", usdPrice(a.usdPrice)],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="min-w-0">
                  <dt className="text-xs text-ink-muted">{label}</dt>
                  <dd className={NUMBER}>{value}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

function ProfileBalances({ profile, balances }: { profile: Profile; balances: Balance[] | undefined }) {
  return (
    <Card title={profile.nickname}>
      {!balances ? (
        <LoadingShape label={`Loading the balances of ${profile.nickname}…`}>
          <Bars count={SHAPE_ROWS.profile} gap="gap-3" />
        </LoadingShape>
      ) : balances.length === 0 ? (
        <p className="text-sm text-ink-muted">No balances.</p>
      ) : (
        <table className="w-full text-sm" aria-label={`Balances of ${profile.nickname}`}>
          <thead>
            <tr className="border-b border-slate-200 text-xs text-ink-muted">
              <th scope="col" className="py-2 pr-3 text-left font-medium">
                Asset
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {AVAILABLE}
              </th>
              <th scope="col" className="py-2 pl-3 text-right font-medium">
                {HELD}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {balances
              .toSorted((a, b) => compareAssets(a.asset, b.asset))
              .map((b) => (
                <tr key={b.asset} data-asset={b.asset}>
                  <th scope="row" className="py-1.5 pr-3 text-left font-semibold">
                    {b.asset}
                  </th>
                  <td className={`px-3 py-1.5 text-right ${NUMBER}`}>
                    <DecimalAligned text={formatAsset(b.available, b.asset)} />
                  </td>
                  <td className={`py-1.5 pl-3 text-right ${NUMBER}`}>
                    <DecimalAligned text={formatAsset(b.trading, b.asset)} />
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
