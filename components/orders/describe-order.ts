import { formatAmount, formatTime, type TimeZoneChoice } from "@/lib/client/format";
import type { TimeInForce } from "@/lib/spec/enums";
import { MARKET_DETAILS } from "@/lib/spec/markets";
import type { CreateOrderRequest, Order } from "@/lib/spec/order";

const TIF_WORDS: Record<Exclude<TimeInForce, "GTT">, string> = {
  GTC: "good till cancelled",
  IOC: "immediate or cancel: what cannot fill at once is cancelled",
  FOK: "fill or kill: all at once or nothing",
};

const amount = (v?: string) => formatAmount(v, { max: 8 });
const priceIn = (quote: string) => (v?: string) => `${formatAmount(v, { min: 2 })} ${quote}`;

function timeInForceWords(r: CreateOrderRequest, zone: TimeZoneChoice): string {
  const tif = r.time_in_force ?? "GTC";
  if (tif !== "GTT") return TIF_WORDS[tif];
  return `good till ${formatTime(Number(r.expiration_date), zone)}`;
}

/** Names for the review: the ordering profile, the recipient profile, and the zone times are shown in. */
export interface OrderWordsOptions {
  recipientName?: string;
  zone?: TimeZoneChoice;
}

/** The order in a sentence a treasury user confirms before it is sent. */
export function describeOrder(r: CreateOrderRequest, profileName: string, options: OrderWordsOptions = {}): string {
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[r.market];
  const side = r.side === "BUY" ? "Buy" : "Sell";
  const price = priceIn(quote);
  const tif = timeInForceWords(r, options.zone ?? "UTC");
  let what: string;
  switch (r.type) {
    case "LIMIT":
      what = `${side} ${amount(r.base_amount)} ${base} at ${price(r.price)} or better, a limit order, ${tif}`;
      break;
    case "POST_ONLY_LIMIT":
      what = `${side} ${amount(r.base_amount)} ${base} at ${price(r.price)}, post-only (rejected if it would trade at once), ${tif}`;
      break;
    case "MARKET":
      what =
        r.side === "BUY"
          ? `Buy ${base} for ${price(r.quote_amount)} at the market price; what cannot fill at once is cancelled`
          : `Sell ${amount(r.base_amount)} ${base} at the market price; what cannot fill at once is cancelled`;
      break;
    case "STOP_MARKET":
      what = `Sell ${amount(r.base_amount)} ${base} at the market price once the last trade falls to ${price(r.stop_price)} (stop-loss), ${tif}`;
      break;
    case "STOP_LIMIT":
      what = `Sell ${amount(r.base_amount)} ${base} at ${price(r.price)} or better once the last trade falls to ${price(r.stop_price)} (stop-loss), ${tif}`;
      break;
  }
  const extras = [
    `from ${profileName}`,
    r.recipient_profile_id && `settling into ${options.recipientName ?? `profile ${r.recipient_profile_id}`}`,
    r.await_fill_millis ? `waiting up to ${r.await_fill_millis / 1000} s for the fill` : undefined,
  ].filter(Boolean);
  return `${what}, ${extras.join(", ")}.`;
}

/** A GTT order the service closed because its time ran out, not one someone cancelled. */
export const expiredGtt = (o: Order): boolean =>
  o.status === "CANCELLED" &&
  o.time_in_force === "GTT" &&
  Boolean(o.expiration_date) &&
  Date.parse(o.modified_at) >= Date.parse(o.expiration_date!);

/**
 * What happened next to what was asked, with units: "Bought 0.0154 BTC of 0.0154 BTC at avg
 * 64,912.50 USD", "Resting: 0 of 0.5 BTC filled", "Cancelled: 0.2 of 0.5 BTC filled at avg …".
 */
export function describeOutcome(o: Order): string {
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[o.market];
  const price = priceIn(quote);
  const anyFill = /[1-9]/.test(o.amount_filled);
  const baseAsked = /[1-9]/.test(o.base_amount);
  const avg = anyFill ? ` at avg ${price(o.volume_weighted_average_price)}` : "";
  const filled = `${amount(o.amount_filled)} ${base}`;
  // A market buy asks for a quote amount; every other order for a base amount.
  const asked = baseAsked ? `of ${amount(o.base_amount)} ${base}` : `for ${price(o.quote_amount)}`;
  const progress = baseAsked
    ? `${amount(o.amount_filled)} of ${amount(o.base_amount)} ${base} filled${avg}`
    : `${filled} ${o.side === "BUY" ? "bought" : "sold"} for up to ${price(o.quote_amount)}${avg}`;
  switch (o.status) {
    case "FILLED":
      return `${o.side === "BUY" ? "Bought" : "Sold"} ${filled} ${asked}${avg}`;
    case "OPEN":
      return o.stop_price && !o.is_triggered
        ? `Waiting for the last trade to fall to ${price(o.stop_price)}: ${progress}`
        : `Resting: ${progress}`;
    case "CANCELLED":
      return `${expiredGtt(o) ? "Expired (GTT)" : "Cancelled"}: ${progress}`;
    case "REJECTED":
      return `Rejected: ${progress}`;
    default:
      return `Submitted: ${progress}`;
  }
}
