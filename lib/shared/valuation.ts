import { addDecimal, roundDecimalHalfUp } from "@/lib/spec/decimal";
import { ASSETS, QUOTE_AMOUNT_SCALE } from "@/lib/spec/markets";
import { usdPriceOf, valueInUsd, type Mids } from "@/lib/spec/valuation";
import type { Balance } from "./service-shapes";

/**
 * What the desk's balances are worth in USD, by the one valuation rule in lib/spec/valuation
 * (docs/pages.md's "Balances" states it). Each asset's value is rounded to the cent, a half up;
 * the grand total adds those cents, so the column adds up as shown.
 */

/** `amount` of `asset` in USD to the cent, a half up; undefined without a price. */
export function usdValueOf(asset: string, amount: string, mids: Mids): string | undefined {
  const value = valueInUsd(amount, asset, mids);
  return value === undefined ? undefined : roundDecimalHalfUp(value, QUOTE_AMOUNT_SCALE);
}

export interface AssetTotal {
  asset: string;
  available: string;
  trading: string;
  /** available + trading. */
  total: string;
  /** One unit in USD (usdPriceOf), undefined without a price. */
  usdPrice?: string;
  /** The total in USD to the cent, undefined without a price. */
  usdValue?: string;
}

export interface DeskTotals {
  assets: AssetTotal[];
  /** The priced assets' USD values added up. */
  usdTotal: string;
  /** Assets held that have no price now, left out of usdTotal. */
  unpriced: string[];
}

const rank = (asset: string) => (ASSETS.includes(asset) ? ASSETS.indexOf(asset) : ASSETS.length);
/** The service's asset order, fiat first; an asset it does not list goes last, by name. */
export const compareAssets = (a: string, b: string): number => rank(a) - rank(b) || a.localeCompare(b);

/** Each asset held across `profiles`, in the service's asset order, with its USD value and the total. */
export function deskTotals(profiles: readonly (readonly Balance[])[], mids: Mids): DeskTotals {
  const sums = new Map<string, { available: string; trading: string }>();
  for (const balance of profiles.flat()) {
    const sum = sums.get(balance.asset) ?? { available: "0", trading: "0" };
    sums.set(balance.asset, {
      available: addDecimal(sum.available, balance.available),
      trading: addDecimal(sum.trading, balance.trading),
    });
  }
  const assets = [...sums]
    .sort(([a], [b]) => compareAssets(a, b))
    .map(([asset, { available, trading }]): AssetTotal => {
      const total = addDecimal(available, trading);
      return {
        asset,
        available,
        trading,
        total,
        usdPrice: usdPriceOf(asset, mids),
        usdValue: usdValueOf(asset, total, mids),
      };
    });
  const priced = assets.filter((a) => a.usdValue !== undefined);
  return {
    assets,
    usdTotal: roundDecimalHalfUp(
      priced.reduce((sum, a) => addDecimal(sum, a.usdValue!), "0"),
      QUOTE_AMOUNT_SCALE,
    ),
    unpriced: assets.filter((a) => a.usdValue === undefined && a.total !== "0").map((a) => a.asset),
  };
}
