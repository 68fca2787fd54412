import type { Market } from "./enums";
import { MARKETS } from "./enums";

/**
 * Market facts, as the published service documents them:
 * price tick per market, base amounts to 1e-8, quote amounts to 0.01.
 */

export const BASE_AMOUNT_SCALE = 8;
export const QUOTE_AMOUNT_SCALE = 2;

const QUOTE_ASSETS = ["USD", "EUR", "SGD"] as const;
export type QuoteAsset = (typeof QUOTE_ASSETS)[number];

const TICK_OVERRIDES: Partial<Record<Market, string>> = {
  BTCUSD: "0.25",
  ETHUSD: "0.05",
  BCHUSD: "0.05",
  MATICUSD: "0.0001",
};
const DEFAULT_TICK = "0.01";

export interface MarketDetails {
  market: Market;
  base_asset: string;
  quote_asset: QuoteAsset;
  /** Smallest price step, a decimal string. */
  tick_rate: string;
}

function detailsOf(market: Market): MarketDetails {
  const quote = QUOTE_ASSETS.find((q) => market.endsWith(q));
  if (!quote) throw new Error(`No quote asset for ${market}`);
  return {
    market,
    base_asset: market.slice(0, -quote.length),
    quote_asset: quote,
    tick_rate: TICK_OVERRIDES[market] ?? DEFAULT_TICK,
  };
}

export const MARKET_DETAILS: Readonly<Record<Market, MarketDetails>> = Object.fromEntries(
  MARKETS.map((m) => [m, detailsOf(m)]),
) as Record<Market, MarketDetails>;

/** USD, EUR and SGD: the service's fiat assets, the quote assets of its markets. */
export const isFiatAsset = (asset: string): asset is QuoteAsset => (QUOTE_ASSETS as readonly string[]).includes(asset);

/** Every asset the markets trade, fiat first. */
export const ASSETS: readonly string[] = [
  ...QUOTE_ASSETS,
  ...new Set(MARKETS.map((m) => MARKET_DETAILS[m].base_asset)),
];

/** True for a market the spec names: the markets the dashboard trades. */
export const isMarket = (value: string): value is Market => (MARKETS as readonly string[]).includes(value);

/** The fiat currencies the service's markets are quoted in, its own list included (PAXGUSD, BTCBRL, USDPGBP…). */
const QUOTE_SUFFIX = /^([A-Z0-9]+?)(USD|EUR|SGD|GBP|BRL|MXN)$/;

/**
 * A market's base and quote asset: the spec's, or for a market only the service lists (its
 * records may name one), read off its name; undefined when the name does not say.
 */
export function marketAssets(market: string): { base_asset: string; quote_asset: string } | undefined {
  if (isMarket(market)) return MARKET_DETAILS[market];
  const [, base_asset, quote_asset] = QUOTE_SUFFIX.exec(market) ?? [];
  return base_asset && quote_asset ? { base_asset, quote_asset } : undefined;
}

/** How a market is shown everywhere: base and quote asset, "BTC/USD"; a name that says neither, as it is. */
export function marketLabel(market: string): string {
  const assets = marketAssets(market);
  return assets ? `${assets.base_asset}/${assets.quote_asset}` : market;
}
