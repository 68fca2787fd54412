import "server-only";
import { isoUtc } from "@/lib/shared/order-rows";
import { marketVwapOf, slippageBps, type MarketTrade, type OrderQuality } from "@/lib/shared/order-quality";
import { amountIfSet, FINAL_ORDER_STATUSES, problem, ProblemError, trimZeros, type Order } from "@/lib/spec";
import { arrivalOfOrder, arrivalsOfOrders, type OrderArrival } from "../db/journal";
import { childrenOf, parentOfId } from "../db/parent-orders";
import { servicePages } from "../lists/list-page";
import { SCAN_CAP, SERVICE_MAX_LIMIT, walkPage } from "../lists/page-walk";
import { parentQuality, withFillsOf } from "../parent-orders/view";
import type { Runtime } from "../runtime";
import { marketTradesOf } from "./market-trades";

/**
 * GET /api/orders/{order_id}/quality (issue 29): what an order cost against the market when the
 * desk asked for it. Its arrival (the mid when the dashboard received the create) from the
 * journal, its own fills from the service's order, and the market's VWAP over its life from the
 * service's recent executions. A parent order's id answers the parent's quality, over all its
 * children. An order the dashboard did not send has no arrival: `arrival_mid` null.
 */

/** The fields of the service's order its quality reads. */
export type QualityOrder = Pick<
  Order,
  "id" | "side" | "status" | "created_at" | "modified_at" | "amount_filled" | "volume_weighted_average_price"
>;

/** An order's quality, for an order read from the service or a parent order of the dashboard's. */
export async function orderQuality(rt: Runtime, orderId: string, profileId?: string): Promise<OrderQuality> {
  const parent = await parentOfId(rt.db, orderId);
  if (parent) {
    const children = await childrenOf(rt.db, parent.id);
    return parentQuality(withFillsOf(parent, children), await marketTradesOf(rt, parent.market), nowOf(rt));
  }
  // With its profile named, the order is read first and its arrival found by its ref_id (the
  // journal's key); without, the journal says whether the dashboard sent it, and under which profile.
  const journaled = profileId === undefined ? await arrivalOfOrder(rt.db, orderId) : undefined;
  const order = await serviceOrder(rt, orderId, journaled?.profile_id ?? profileId);
  const arrival = journaled ?? (await arrivalsOfOrders(rt.db, [order])).get(order.id);
  return qualityOf(order, arrival, await marketTradesOf(rt, order.market), nowOf(rt));
}

/**
 * An order's quality from its record, its arrival (undefined when the dashboard did not send it)
 * and its market's trades, at `now` (ISO): the window runs from its creation (or its arrival, when
 * earlier) to its last change once it is done (FILLED, CANCELLED, REJECTED), else to now.
 */
export function qualityOf(
  order: QualityOrder,
  arrival: Pick<OrderArrival, "arrival_mid" | "arrival_at"> | undefined,
  trades: readonly MarketTrade[],
  now: string,
): OrderQuality {
  const filled = amountIfSet(order.amount_filled);
  const fillVwap = filled ? trimmedIfSet(order.volume_weighted_average_price) : null;
  const arrivalMid = arrival?.arrival_mid ?? null;
  const windowStart = earlier(isoUtc(order.created_at), arrival ? isoUtc(arrival.arrival_at) : undefined);
  const windowEnd = FINAL_ORDER_STATUSES.includes(order.status) ? isoUtc(order.modified_at) : now;
  return {
    order_id: order.id,
    arrival_mid: arrivalMid,
    arrival_at: arrival ? isoUtc(arrival.arrival_at) : null,
    filled: filled ? trimZeros(filled) : "0",
    fill_vwap: fillVwap,
    slippage_bps: slippageBps(order.side, arrivalMid, fillVwap),
    market_vwap: marketVwapOf(trades, windowStart, windowEnd),
    window_start: windowStart,
    window_end: windowEnd,
  };
}

/** A decimal the service may leave unset ("" or "0"), without its trailing zeros; null when unset. */
const trimmedIfSet = (value: string | undefined): string | null => {
  const set = amountIfSet(value);
  return set ? trimZeros(set) : null;
};

/** The earlier of two ISO times (the first when the second is absent or unreadable). */
const earlier = (a: string, b: string | undefined): string =>
  b !== undefined && Date.parse(b) < Date.parse(a) ? b : a;

const nowOf = (rt: Runtime) => new Date(rt.clock.now()).toISOString();

/**
 * The order at the service: under its profile when the journal (or the caller) names it
 * (GET /profiles/{profile_id}/orders/{id}), else found in the service's order list (GET /orders,
 * read until it is found or SCAN_CAP records were read). A 404 naming the id when it is nowhere.
 */
async function serviceOrder(rt: Runtime, orderId: string, profileId: string | undefined): Promise<Order> {
  if (profileId === undefined) return (await listedOrder(rt, orderId)) ?? notFound(orderId);
  const res = await rt.upstream.request({
    method: "GET",
    path: `/profiles/${encodeURIComponent(profileId)}/orders/${encodeURIComponent(orderId)}`,
  });
  if (res.status === 200) return res.body as Order;
  if (res.status === 404) return notFound(orderId);
  throw new ProblemError(
    problem(502, "Bad Gateway", `The service's order ${orderId} could not be read (it answered ${res.status}).`),
  );
}

async function listedOrder(rt: Runtime, orderId: string): Promise<Order | undefined> {
  const found = await walkPage(
    servicePages<Order>(rt.upstream, "/orders", {}),
    (o) => o.id === orderId,
    { skip: 0, batch: SERVICE_MAX_LIMIT },
    1,
    SCAN_CAP,
  );
  return found.items[0];
}

function notFound(orderId: string): never {
  throw new ProblemError(problem(404, "Not Found", `No order has id ${orderId}.`, { order_id: orderId }));
}
