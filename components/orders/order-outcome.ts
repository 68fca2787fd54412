import { FINAL_ORDER_STATUSES, type OrderStatus } from "@/lib/spec/enums";
import { amountIfSet } from "@/lib/spec/decimal";
import { MARKET_DETAILS } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import { detailOf, orderEndKey, orderWords, refWords } from "@/components/notices/notice-words";
import type { NoticeWords } from "@/lib/client/notice-log";
import { amount, priceIn } from "@/lib/shared/describe-order";

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
      // A stop order's stop price; "" or "0" on every other order (unused fields, as the service sends them).
      return amountIfSet(o.stop_price) && !o.is_triggered
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

export const isFinalOrder = (status: string): boolean => FINAL_ORDER_STATUSES.includes(status as OrderStatus);

/**
 * The one notice of an order's end (filled, cancelled, a GTT expiry, rejected), keyed by the
 * order: the table that cancelled it and the ticket's card that follows it give the same one.
 * It names the order ("Order 1a2b3c4d cancelled: buy 0.5 BTC on BTC/USD from Trading") and
 * says what came of it, with its ref_id.
 */
export function orderEndNotice(order: Order, profileName: string): NoticeWords {
  const id = order.id.slice(0, 8);
  const words = orderWords(order, profileName);
  const notice = { key: orderEndKey(order.id), detail: detailOf(describeOutcome(order), refWords(order.ref_id)) };
  if (order.status === "FILLED") return { ...notice, title: `Order ${id} filled: ${words}`, tone: "success" };
  if (order.status === "REJECTED") return { ...notice, title: `Order ${id} rejected: ${words}`, tone: "error" };
  const ended = expiredGtt(order) ? `GTT order ${id} expired` : `Order ${id} cancelled`;
  return { ...notice, title: `${ended}: ${words}`, tone: "warning" };
}
