import { formatAmount, formatCount, formatMoney, formatPrice, formatTickPrice } from "@/lib/shared/format";
import type { Nickname } from "@/lib/shared/named-profiles";
import type { Market } from "@/lib/spec/enums";
import { isMarket, MARKET_DETAILS } from "@/lib/spec/markets";

/**
 * A TWAP parent order (lib/shared/parent-order.ts) in the desk's words, one sentence said the same
 * everywhere: the ticket's review ("Buy 2 BTC over 30 minutes in 30 slices, never above
 * 66,000.00 USD"), and, with the profile named, the approval's card, its restatement at the
 * button, the requester's notices and the audit trail ("…, from Trading").
 */

/** What the sentence reads of a parent's request (its record and its approval's request hold these too). */
export interface ParentOrderAsk {
  profile_id?: string;
  market: Market | string;
  side: "BUY" | "SELL" | string;
  base_amount: string;
  duration_seconds: number;
  slices: number;
  limit_price: string;
}

const unit = (n: number, one: string): string => `${formatCount(n)} ${one}${n === 1 ? "" : "s"}`;

/**
 * A parent's duration in words, its whole hours, minutes and seconds: "1 minute", "90 seconds" is
 * "1 minute 30 seconds", "5,400 seconds" is "1 hour 30 minutes", "24 hours".
 */
export function durationWords(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const parts = [h > 0 && unit(h, "hour"), m > 0 && unit(m, "minute"), (s > 0 || whole === 0) && unit(s, "second")];
  return parts.filter(Boolean).join(" ");
}

/** The profile by its nickname: a lookup by id, or the name itself. */
export type ProfileNaming = Nickname | string;

const profileWords = (r: ParentOrderAsk, naming: ProfileNaming | undefined): string | undefined => {
  if (typeof naming === "string") return naming || undefined;
  return naming && r.profile_id ? naming(r.profile_id) : undefined;
};

/** "buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD" (and ", from Trading" with a nickname). */
function phrase(r: ParentOrderAsk, nickname: ProfileNaming | undefined, capital: boolean): string {
  const details = isMarket(r.market) ? MARKET_DETAILS[r.market] : undefined;
  const sell = r.side === "SELL";
  const side = sell ? (capital ? "Sell" : "sell") : capital ? "Buy" : "buy";
  // A market the dashboard does not know (an old record's) keeps its figures, grouped, without assets.
  const cap = details
    ? `${formatTickPrice(r.limit_price, details.market)} ${details.quote_asset}`
    : formatPrice(r.limit_price);
  const amount = details ? formatMoney(r.base_amount, details.base_asset) : formatAmount(r.base_amount);
  const profile = profileWords(r, nickname);
  const over = `over ${durationWords(r.duration_seconds)} in ${unit(r.slices, "slice")}`;
  return `${side} ${amount} ${over}, never ${sell ? "below" : "above"} ${cap}${profile ? `, from ${profile}` : ""}`;
}

/**
 * The parent in one sentence, as the ticket's review says it: "Buy 2 BTC over 30 minutes in 30
 * slices, never above 66,000.00 USD"; a sell "never below". With `nickname` (a lookup by profile
 * id, or the profile's name), its profile named after it: "…, from Trading".
 */
export const describeParentOrder = (request: ParentOrderAsk, nickname?: ProfileNaming): string =>
  phrase(request, nickname, true);

/** The same within a sentence: "buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading". */
export const parentOrderPhrase = (request: ParentOrderAsk, nickname?: ProfileNaming): string =>
  phrase(request, nickname, false);

/** Where a parent, its children and their fills are followed: its own page. */
export const parentOrderHref = (parentOrderId: string): string => `/parent-orders/${encodeURIComponent(parentOrderId)}`;
