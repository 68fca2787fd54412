import "server-only";
import type { PriceGuard } from "@/lib/shared/price-guard";
import { compareDecimal, divideDecimalDown, multiplyDecimal, subtractDecimal } from "@/lib/spec";
import type { OrderAmounts } from "@/lib/spec/valuation";

/**
 * The price guard's reading of an order, pure: an order that would take liquidity at a price
 * further from the mid than the policy's percent needs the market's name typed to confirm.
 * The price weighed is the order's own limit price (as the service's band weighs it: "Taker
 * orders will be rejected if price deviates 15% from midpoint"), however little of the book it
 * would reach; for a market order, the worst price it is expected to fill at, from the book.
 * A stop whose stop price the market has already reached triggers at once, so it is weighed
 * as the limit or market order it becomes. An order that rests (a post-only, a limit that does
 * not cross, a stop not yet triggered) takes nothing now and is not weighed.
 */

export interface Level {
  price: string;
  amount: string;
}

export interface Book {
  bids: Level[];
  asks: Level[];
}

/** The market's best prices and mid now. */
export interface Quote {
  mid: string;
  bid?: string;
  ask?: string;
}

type Taking = "limit" | "market" | undefined;

/** How the order takes liquidity now: as a limit order, as a market order, or not at all. */
function takingAs(order: OrderAmounts, mid: string): Taking {
  if (order.type === "LIMIT") return "limit";
  if (order.type === "MARKET") return "market";
  // Sell stops (the service has no others) trigger once the market falls to their stop price.
  const triggered = Boolean(order.stop_price) && compareDecimal(order.stop_price!, mid) >= 0;
  if (!triggered) return undefined;
  return order.type === "STOP_LIMIT" ? "limit" : order.type === "STOP_MARKET" ? "market" : undefined;
}

/** True when the guard needs the order book to weigh this order (a market order's expected fill). */
export const guardNeedsBook = (order: OrderAmounts, mid: string): boolean => takingAs(order, mid) === "market";

/**
 * The guard's figures when the order is past it; undefined when it is within the guard or
 * takes nothing. `book` is required when guardNeedsBook says so.
 */
export function priceGuardReading(
  order: OrderAmounts,
  quote: Quote,
  book: Book | undefined,
  limitPercent: string,
): PriceGuard | undefined {
  const price = weighedPrice(order, quote, book);
  if (!price) return undefined;
  const deviation = divideDecimalDown(multiplyDecimal(absDiff(price, quote.mid), "100"), quote.mid, 2);
  if (compareDecimal(deviation, limitPercent) <= 0) return undefined;
  return { market: order.market, mid: quote.mid, price, deviation_percent: deviation, limit_percent: limitPercent };
}

function weighedPrice(order: OrderAmounts, quote: Quote, book: Book | undefined): string | undefined {
  const taking = takingAs(order, quote.mid);
  if (taking === "limit") {
    const own = order.price!;
    const crosses =
      order.side === "BUY"
        ? quote.ask !== undefined && compareDecimal(own, quote.ask) >= 0
        : quote.bid !== undefined && compareDecimal(own, quote.bid) <= 0;
    return crosses ? own : undefined;
  }
  if (taking === "market") return book && worstFill(order, book);
  return undefined;
}

/** The furthest level a market order would reach in `book`, or undefined when the side is empty. */
export function worstFill(order: OrderAmounts, book: Book): string | undefined {
  const levels = order.side === "BUY" ? book.asks : book.bids;
  const byQuote = order.side === "BUY" && order.type === "MARKET";
  let left = byQuote ? order.quote_amount! : order.base_amount!;
  let worst: string | undefined;
  for (const level of levels) {
    if (compareDecimal(left, "0") <= 0) break;
    worst = level.price;
    const take = byQuote ? multiplyDecimal(level.amount, level.price) : level.amount;
    left = compareDecimal(take, left) >= 0 ? "0" : subtractDecimal(left, take);
  }
  return worst;
}

const absDiff = (a: string, b: string) => (compareDecimal(a, b) >= 0 ? subtractDecimal(a, b) : subtractDecimal(b, a));
