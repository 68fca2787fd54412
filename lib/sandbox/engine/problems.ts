import { problem, ProblemError } from "@/lib/spec";

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
  marketConditions: (detail: string) =>
    new ProblemError({
      type: typeOf("market-conditions-prevented-execution"),
      title: "Market Conditions Prevented Execution",
      status: 403,
      detail,
    }),
  notionalTooLarge: (type: string, notional: string, max: string) =>
    new ProblemError({
      type: typeOf("notional-value-too-large"),
      title: "Notional Value Too Large",
      status: 403,
      detail: `the order's value of ${notional} exceeds the largest ${type} order value of ${max}`,
      meta: { notional_value: notional, max_notional_value: max, order_type: type },
    }),
  priceBand: (market: string, price: string, mid: string, bandPercent: string) =>
    new ProblemError({
      type: typeOf("price-outside-band"),
      title: "Price Outside Band",
      status: 403,
      detail: `the order would trade at ${price} on ${market}, more than ${bandPercent}% from the mid of ${mid}`,
      meta: { market, price, mid, band_percent: bandPercent },
    }),
  alreadyExists: (detail: string, existing?: unknown) =>
    new ProblemError({
      type: typeOf("already-exists"),
      title: "Already Exists",
      status: 409,
      detail,
      ...(existing ? { meta: { existing } } : {}),
    }),
};
