import { problem, ProblemError } from "@/lib/spec";
import { formatTrimmed } from "./amounts";
import { InsufficientFunds } from "./ledger";

/**
 * The service's refusals, as the published service words them. Types are relative URIs
 * under the sandbox (RFC 9457 allows references); clients match on the last segment.
 */
const typeOf = (slug: string) => `/sandbox/problems/${slug}`;

export const problems = {
  notFound: (detail: string) => new ProblemError(problem(404, "Not Found", detail)),
  forbidden: (detail: string) => new ProblemError(problem(403, "Forbidden", detail)),
  insufficientFunds: (profileId: string, asset: string, available: string, needed: string) =>
    new ProblemError({
      type: typeOf("insufficient-funds"),
      title: "Insufficient Funds",
      status: 403,
      detail: `insufficient ${asset} funds in profile ${profileId}: ${needed} needed, ${available} available`,
      meta: { profile_id: profileId, asset, available, needed },
    }),
  marketConditions: () =>
    new ProblemError({
      type: typeOf("market-conditions-prevented-execution"),
      title: "Market Conditions Prevented Execution",
      status: 403,
      detail: "market conditions have invalidated this order",
    }),
  notionalTooLarge: (market: string, orderType: string, notional: string, max: string) =>
    new ProblemError({
      type: typeOf("notional-value-too-large"),
      title: "Notional Value Too Large",
      status: 403,
      detail: `notional value too large for ${market} ${orderType} order: order had notional value ${notional}, but maximum allowed notional value is ${max}`,
      meta: { market, order_type: orderType, order_notional_value: notional, max_notional_value: max },
    }),
  priceBand: (figures: {
    market: string;
    price: string;
    mid: string;
    band_percent: string;
    deviation_percent: string;
    min_price: string;
    max_price: string;
  }) =>
    new ProblemError({
      type: typeOf("price-outside-band"),
      title: "Price Outside Band",
      status: 403,
      detail:
        `taker orders are rejected if price deviates ${figures.band_percent}% from midpoint: ` +
        `price ${figures.price} is ${figures.deviation_percent}% from the ${figures.market} midpoint ${figures.mid}`,
      meta: figures,
    }),
  /** A reused ref_id, with the record it belongs to in `meta.existing`; the title's case differs by endpoint, as the service's does. */
  alreadyExists: (detail: string, existing: object, title: "Already Exists" | "Already exists" = "Already Exists") =>
    new ProblemError({ type: typeOf("already-exists"), title, status: 409, detail, meta: { existing } }),
};

/** Makes a ledger move, refusing a shortfall with the service's 403 Insufficient Funds. */
export function withFunds(move: () => void): void {
  try {
    move();
  } catch (error) {
    if (!(error instanceof InsufficientFunds)) throw error;
    const { profileId, asset, available, needed } = error;
    throw problems.insufficientFunds(profileId, asset, formatTrimmed(available), formatTrimmed(needed));
  }
}
