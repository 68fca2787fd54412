import { formatAmount, formatTime, type TimeZoneChoice } from "@/lib/shared/format";
import type { TimeInForce } from "@/lib/spec/enums";
import { MARKET_DETAILS } from "@/lib/spec/markets";
import type { CreateOrderRequest } from "@/lib/spec/order";
import { effectiveTimeInForce } from "@/lib/spec/time-in-force";

export const TIF_WORDS: Record<Exclude<TimeInForce, "GTT">, string> = {
  GTC: "good till cancelled",
  IOC: "immediate or cancel: what cannot fill at once is cancelled",
  FOK: "fill or kill: all at once or nothing",
};

export const amount = (v?: string) => formatAmount(v, { max: 8 });
/** A price or quote amount with its currency: "64,912.50 USD". */
export const priceIn = (quote: string) => (v?: string) => `${formatAmount(v, { min: 2 })} ${quote}`;

/** The time in force sent, in words: none sent is the one the service applies to the type. */
function timeInForceWords(r: CreateOrderRequest, zone: TimeZoneChoice): string {
  const tif = effectiveTimeInForce(r.type, r.time_in_force);
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
          ? `Buy ${base} for ${price(r.quote_amount)} at the market price, ${tif}`
          : `Sell ${amount(r.base_amount)} ${base} at the market price, ${tif}`;
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
