import "server-only";
import { compareDecimal, createOrderRequestSchema, type CreateOrderRequest, type Order } from "@/lib/spec";
import { newRefId } from "@/lib/ref-id";
import type { SignedInUser } from "../auth/session";
import { findByRefId } from "./by-ref";
import { SCOPE } from "./upstream";
import { createOnce } from "./create";
import { parseOr400 } from "./validate";

const sameAmount = (a: string | undefined, b: string | undefined) =>
  a === undefined ? !b : Boolean(b) && compareDecimal(a, b!) === 0;

/** True when `record` is the order `request` describes (so a 409 for our ref_id is our own order). */
function isSameOrder(profileId: string, request: CreateOrderRequest, record: unknown): boolean {
  const o = record as Partial<Order>;
  return (
    o.profile_id === profileId &&
    o.side === request.side &&
    o.market === request.market &&
    o.type === request.type &&
    sameAmount(request.base_amount, o.base_amount) &&
    sameAmount(request.quote_amount, o.quote_amount) &&
    sameAmount(request.price, o.price)
  );
}

/** Create Order through the journal; `profileId` is already validated and encoded. */
// Built once: building it compiles zod's validators, which costs more than a parse. `now` is read at parse time.
const orderRequestSchema = createOrderRequestSchema();

export function createOrder(profileId: string, input: unknown, user: SignedInUser) {
  const request = parseOr400(orderRequestSchema, input);
  const body = { ...request, ref_id: request.ref_id ?? newRefId() };
  return createOnce(
    {
      kind: "order",
      path: `/profiles/${profileId}/orders`,
      scopes: SCOPE.writeOrder,
      body,
      profileId: decodeURIComponent(profileId),
      findByRef: () => findByRefId("order", body.ref_id),
      matches: (record) => isSameOrder(decodeURIComponent(profileId), body, record),
    },
    user,
  );
}
