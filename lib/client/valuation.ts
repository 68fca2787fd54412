import {
  addDecimal,
  divideDecimalHalfUp,
  midpointDecimal,
  multiplyDecimal,
  roundDecimalHalfUp,
} from "@/lib/spec/decimal";
import { MARKETS, type Market } from "@/lib/spec/enums";
import { ASSETS, QUOTE_AMOUNT_SCALE } from "@/lib/spec/markets";
import type { Balance, Ticker } from "./queries";

/**
 * What the desk's balances are worth in USD, exactly (the README's "Balances" states the
 * rule): USD at 1; a crypto asset at the mid of its USD market, (best bid + best ask) / 2;
 * EUR and SGD at the cross of BTC's mids, BTCUSD / BTCEUR and BTCUSD / BTCSGD (the most
 * liquid pair quoted in all three). Each asset's value is rounded to the cent, a half up;
 * the grand total adds those cents, so the column adds up as shown.
 */

/** The BTC markets whose mids give EUR's and SGD's USD price. */
const FIAT_CROSS: Readonly<Record<string, { usd: Market; local: Market }>> = {
  EUR: { usd: "BTCUSD", local: "BTCEUR" },
  SGD: { usd: "BTCUSD", local: "BTCSGD" },
};
/** How many decimals a cross rate is shown with (the value itself is computed without it). */
const CROSS_RATE_SCALE = 6;

/** Mid prices by market; undefined when the market has no two-sided book. */
export type Mids = (market: Market) => string | undefined;

/** The midpoint of the best bid and ask, or undefined when a side is empty (the service says "0"). */
export function midOf(ticker: Ticker | undefined): string | undefined {
  if (!ticker || ticker.best_bid.price === "0" || ticker.best_ask.price === "0") return undefined;
  return midpointDecimal(ticker.best_bid.price, ticker.best_ask.price);
}

const usdMarketOf = (asset: string): Market | undefined => MARKETS.find((m) => m === `${asset}USD`);

/** The markets whose tickers value `asset` in USD (none for USD itself or an asset without one). */
export function valuationMarkets(asset: string): Market[] {
  const cross = FIAT_CROSS[asset];
  if (cross) return [cross.usd, cross.local];
  const market = usdMarketOf(asset);
  return market ? [market] : [];
}

/** One unit of `asset` in USD, for showing: exact for crypto, 6 decimals for a cross; undefined without a price. */
export function usdPriceOf(asset: string, mids: Mids): string | undefined {
  if (asset === "USD") return "1";
  const cross = FIAT_CROSS[asset];
  if (cross) {
    const [usd, local] = [mids(cross.usd), mids(cross.local)];
    return usd && local ? divideDecimalHalfUp(usd, local, CROSS_RATE_SCALE) : undefined;
  }
  const market = usdMarketOf(asset);
  return market && mids(market);
}

/** `amount` of `asset` in USD to the cent, a half up; undefined without a price. */
export function usdValueOf(asset: string, amount: string, mids: Mids): string | undefined {
  if (asset === "USD") return roundDecimalHalfUp(amount, QUOTE_AMOUNT_SCALE);
  const cross = FIAT_CROSS[asset];
  if (cross) {
    const [usd, local] = [mids(cross.usd), mids(cross.local)];
    // amount * usd / local in one division, so no rounded rate is multiplied up.
    return usd && local ? divideDecimalHalfUp(multiplyDecimal(amount, usd), local, QUOTE_AMOUNT_SCALE) : undefined;
  }
  const market = usdMarketOf(asset);
  const mid = market && mids(market);
  return mid ? roundDecimalHalfUp(multiplyDecimal(amount, mid), QUOTE_AMOUNT_SCALE) : undefined;
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
