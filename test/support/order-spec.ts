import type { OrderSide, OrderType, QuantityField, TimeInForce } from "@/lib/spec";

/**
 * The Create Order rules as the service publishes them, written out by hand. Tests draw
 * their cases from here and check lib/spec against it, never the other way round: a
 * wrong rule in lib/spec must fail a test, not shape the cases that test it.
 */

export interface OrderKind {
  type: OrderType;
  side: OrderSide;
  required: readonly QuantityField[];
  refused: readonly QuantityField[];
}

/** Every type and side the service takes (stop orders are sells only), with its quantities. */
// prettier-ignore
export const ORDER_KINDS: readonly OrderKind[] = [
  { type: "LIMIT",           side: "BUY",  required: ["price", "base_amount"],               refused: ["quote_amount", "stop_price"] },
  { type: "LIMIT",           side: "SELL", required: ["price", "base_amount"],               refused: ["quote_amount", "stop_price"] },
  { type: "POST_ONLY_LIMIT", side: "BUY",  required: ["price", "base_amount"],               refused: ["quote_amount", "stop_price"] },
  { type: "POST_ONLY_LIMIT", side: "SELL", required: ["price", "base_amount"],               refused: ["quote_amount", "stop_price"] },
  { type: "MARKET",          side: "BUY",  required: ["quote_amount"],                       refused: ["price", "base_amount", "stop_price"] },
  { type: "MARKET",          side: "SELL", required: ["base_amount"],                        refused: ["price", "quote_amount", "stop_price"] },
  { type: "STOP_MARKET",     side: "SELL", required: ["stop_price", "base_amount"],          refused: ["price", "quote_amount"] },
  { type: "STOP_LIMIT",      side: "SELL", required: ["stop_price", "base_amount", "price"], refused: ["quote_amount"] },
];

/** The spec's rule for one type and side; throws for a pair the service refuses. */
export function kindOf(type: OrderType, side: OrderSide): OrderKind {
  const kind = ORDER_KINDS.find((k) => k.type === type && k.side === side);
  if (!kind) throw new Error(`the spec has no ${side} ${type} order`);
  return kind;
}

/** The service's time-in-force table by order type: D the default, V valid, - refused. */
// prettier-ignore
export const TIME_IN_FORCE: Record<OrderType, Record<TimeInForce, "D" | "V" | "-">> = {
  MARKET:          { IOC: "D", GTC: "-", GTT: "-", FOK: "-" },
  LIMIT:           { IOC: "V", GTC: "D", GTT: "V", FOK: "V" },
  POST_ONLY_LIMIT: { IOC: "V", GTC: "D", GTT: "V", FOK: "V" },
  STOP_MARKET:     { IOC: "-", GTC: "D", GTT: "V", FOK: "-" },
  STOP_LIMIT:      { IOC: "-", GTC: "D", GTT: "V", FOK: "-" },
};

const timesInForceMarked = (type: OrderType, marks: string): TimeInForce[] =>
  Object.entries(TIME_IN_FORCE[type])
    .filter(([, mark]) => marks.includes(mark))
    .map(([tif]) => tif as TimeInForce);

/** What the type accepts, its default included. */
export const validTimesInForce = (type: OrderType): TimeInForce[] => timesInForceMarked(type, "DV");
export const refusedTimesInForce = (type: OrderType): TimeInForce[] => timesInForceMarked(type, "-");
export const defaultTimeInForce = (type: OrderType): TimeInForce => timesInForceMarked(type, "D")[0]!;
