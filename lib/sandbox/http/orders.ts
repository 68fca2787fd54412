import * as z from "zod";
import { createOrderRequestSchema, marketSchema, orderStatusSchema, type Order } from "@/lib/spec";
import { problems } from "../engine/problems";
import { toOrderRecord } from "../engine/records";
import { json, jsonBody, parseOr400, pathId, queryOf } from "@/lib/http";
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

/** DELETE /v2/profiles/{profile_id}/orders/{id}: acknowledged with {}. */
export const cancelOrder: Handler = (ctx) => {
  const { profileId, orderId } = ownOrder(ctx);
  ctx.sandbox.run((ex) => ex.cancelOrder(ctx.caller.customerId, profileId, orderId));
  return json({});
};

const listOrdersQuery = z.strictObject({
  profile_id: z.string().optional(),
  market: z.optional(marketSchema),
  status: z.optional(orderStatusSchema),
  ref_ids: z.array(z.string()).max(100, "ref_ids may list at most 100 ids").optional(),
  ...pageFields,
});

/** GET /v2/orders, newest first. */
export const listOrders: Handler = ({ url, caller, sandbox }) => {
  const q = parseOr400(
    listOrdersQuery,
    queryOf(url, ["profile_id", "market", "status", "limit", "page_cursor"], ["ref_ids"]),
  );
  const refIds = q.ref_ids ? new Set(q.ref_ids) : undefined;
  const matching = [...sandbox.exchange.orders.values()]
    .filter(
      (o) =>
        o.customerId === caller.customerId &&
        (!q.profile_id || o.profileId === q.profile_id) &&
        (!q.market || o.market === q.market) &&
        (!q.status || o.status === q.status) &&
        (!refIds || refIds.has(o.refId)),
    )
    .sort((a, b) => b.seq - a.seq);
  const result = page(matching, (o) => paddedKey(o.seq), q.limit, q.page_cursor);
  return json({ items: result.items.map(toOrderRecord), next_page_cursor: result.next_page_cursor });
};
