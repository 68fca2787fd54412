import * as z from "zod";
import { createOrderRequestSchema, marketSchema, orderStatusSchema, type Order } from "@/lib/spec";
import { problems } from "../engine/problems";
import { toOrderRecord } from "../engine/records";
import { json, jsonBody, parseOr400, pathId, queryOf } from "@/lib/server/http/toolkit";
import type { Handler } from "./context";
import { page, paddedKey, pageFields } from "./pages";

/** POST /v2/profiles/{profile_id}/orders: SUBMITTED at once, or after await_fill_millis. */
export const createOrder: Handler = async ({ request, params, caller, sandbox }) => {
  const profileId = pathId("profile_id", params.profile_id);
  const body = parseOr400(createOrderRequestSchema({ now: sandbox.now }), await jsonBody(request));
  const order = sandbox.run((ex) => ex.submitOrder(caller.customerId, profileId, body));
  const submitted: Order = toOrderRecord(order);
  sandbox.scheduleProcessing();
  if (!body.await_fill_millis) return json(submitted);
  await sandbox.awaitFill(order.id, body.await_fill_millis);
  return json(toOrderRecord(order));
};

const ownOrder = ({ params, caller, sandbox }: Parameters<Handler>[0]) => {
  const profileId = pathId("profile_id", params.profile_id);
  const orderId = pathId("id", params.id);
  sandbox.exchange.profileOf(caller.customerId, profileId);
  return { profileId, orderId };
};

/** GET /v2/profiles/{profile_id}/orders/{id} */
export const getOrder: Handler = (ctx) => {
  const { profileId, orderId } = ownOrder(ctx);
  const order = ctx.sandbox.exchange.orders.get(orderId);
  if (!order || order.profileId !== profileId) throw problems.notFound(`order not found: ${orderId}`);
  return json(toOrderRecord(order));
};

/**
 * DELETE /v2/profiles/{profile_id}/orders/{id}: acknowledged with {}, "no guarantee the order has
 * been cancelled"; it becomes CANCELLED SANDBOX_CANCEL_SETTLE_MS later, unless it fills first.
 */
export const cancelOrder: Handler = (ctx) => {
  const { profileId, orderId } = ownOrder(ctx);
  ctx.sandbox.run((ex) => ex.requestCancel(ctx.caller.customerId, profileId, orderId));
  return json({});
};

/** RFC 3339 bounds of List Orders, both inclusive. */
const orderTime = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be an RFC 3339 time` }).optional();

const listOrdersQuery = z.strictObject({
  profile_id: z.string().optional(),
  account_id: z.string().optional(),
  market: z.optional(marketSchema),
  status: z.optional(orderStatusSchema),
  "order_time.begin": orderTime("order_time.begin"),
  "order_time.end": orderTime("order_time.end"),
  ref_ids: z.array(z.string()).max(100, "ref_ids may list at most 100 ids").optional(),
  ...pageFields,
});
const SCALARS = [
  "profile_id",
  "account_id",
  "market",
  "status",
  "order_time.begin",
  "order_time.end",
  "limit",
  "page_cursor",
];

const within = (at: number, begin: string | undefined, end: string | undefined) =>
  (begin === undefined || at >= Date.parse(begin)) && (end === undefined || at <= Date.parse(end));

/** GET /v2/orders, newest first; unused amounts read "0", as in the service's List Orders. */
export const listOrders: Handler = ({ url, caller, sandbox }) => {
  const q = parseOr400(listOrdersQuery, queryOf(url, SCALARS, ["ref_ids"]));
  const refIds = q.ref_ids ? new Set(q.ref_ids) : undefined;
  const matching = [...sandbox.exchange.orders.values()]
    .filter(
      (o) =>
        o.customerId === caller.customerId &&
        (!q.profile_id || o.profileId === q.profile_id) &&
        (!q.account_id || o.request.identity_account_id === q.account_id) &&
        (!q.market || o.market === q.market) &&
        (!q.status || o.status === q.status) &&
        within(o.createdAt, q["order_time.begin"], q["order_time.end"]) &&
        (!refIds || refIds.has(o.refId)),
    )
    .sort((a, b) => b.seq - a.seq);
  const result = page(matching, (o) => paddedKey(o.seq), q.limit, q.page_cursor);
  return json({ ...result, items: result.items.map((o) => toOrderRecord(o, "0")) });
};
