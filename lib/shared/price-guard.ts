/**
 * The price guard (lib/server/create/controls/price-guard.ts): an order that would take liquidity further from
 * the mid than the policy allows is refused with a 428 until it is sent again with the
 * market's name, as the person typed it, in a header. Shared by the back end and the forms,
 * apart from lib/shared/policy.ts so the order ticket's first load carries no schema.
 */

/** The header that carries the market's name, typed to send an order past the price guard. */
export const CONFIRM_PRICE_GUARD_HEADER = "Confirm-Price-Guard";
export const PRICE_GUARD_TYPE = "/problems/price-guard";

/** The price guard's 428 `meta`: how far from the mid the order would trade, and the market to type. */
export type PriceGuard = {
  market: string;
  mid: string;
  price: string;
  deviation_percent: string;
  limit_percent: string;
};
