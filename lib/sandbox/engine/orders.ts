import { MARKET_DETAILS, effectiveTimeInForce, type CreateOrderRequest, type OrderStatus } from "@/lib/spec";
import { mul, parseAmount } from "./amounts";
import type { EngineOrder } from "./types";

/** The statuses an order never leaves. */
export const FINAL: ReadonlySet<OrderStatus> = new Set(["FILLED", "CANCELLED", "REJECTED"]);

type Hold = Pick<EngineOrder, "holdAsset" | "held">;

/** What an order holds while open: a buy its budget or price × amount of quote, a sell its base amount. */
export function holdOf(request: CreateOrderRequest): Hold {
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[request.market];
  const baseAmount = request.base_amount ? parseAmount(request.base_amount) : null;
  if (request.side !== "BUY") return { holdAsset: base, held: baseAmount! };
  const price = request.price ? parseAmount(request.price) : 0n;
  const quoteAmount = request.quote_amount ? parseAmount(request.quote_amount) : null;
  return { holdAsset: quote, held: quoteAmount ?? mul(price, baseAmount!) };
}

/** A new order as the service accepts it: SUBMITTED, its funds already held. */
export function newOrder(
  request: CreateOrderRequest,
  given: Pick<EngineOrder, "id" | "seq" | "profileId" | "customerId" | "createdAt"> & Hold,
): EngineOrder {
  const baseAmount = request.base_amount ? parseAmount(request.base_amount) : null;
  return {
    id: given.id,
    seq: given.seq,
    profileId: given.profileId,
    customerId: given.customerId,
    refId: request.ref_id ?? "",
    side: request.side,
    market: request.market,
    type: request.type,
    timeInForce: effectiveTimeInForce(request.type, request.time_in_force),
    price: request.price ? parseAmount(request.price) : 0n,
    stopPrice: request.stop_price ? parseAmount(request.stop_price) : null,
    baseAmount,
    quoteAmount: request.quote_amount ? parseAmount(request.quote_amount) : null,
    open: baseAmount ?? 0n,
    filledBase: 0n,
    filledQuote: 0n,
    held: given.held,
    holdAsset: given.holdAsset,
    status: "SUBMITTED",
    isTriggered: false,
    expiresAt: request.expiration_date ? Number(request.expiration_date) : null,
    createdAt: given.createdAt,
    modifiedAt: given.createdAt,
    closedAt: null,
    request,
  };
}
