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

/** How a market is shown everywhere: base and quote asset, "BTC/USD". */
export const marketLabel = (market: Market): string =>
  `${MARKET_DETAILS[market].base_asset}/${MARKET_DETAILS[market].quote_asset}`;
