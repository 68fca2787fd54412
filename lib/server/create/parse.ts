import "server-only";
import { fieldProblem, parseOr400 } from "@/lib/server/http/toolkit";
import { newRefId } from "@/lib/shared/ref-id";
import { createInternalTransferRequestSchema, createOrderRequestSchema } from "@/lib/spec";
import type { Create } from "./create";

/**
 * Step 1, parse: the request checked with lib/spec's schema (a 400 naming each field, before
 * anything is written or sent), and a ref_id made when none was sent. The 400 is worded by the
 * request toolkit (lib/server/http/toolkit.ts), the one place a zod failure becomes a problem:
 * the create path sits above it, as the tables' routes and the sandbox do.
 */

// `now` is read at parse time, so the schema is built once.
const orderSchema = createOrderRequestSchema();
// A stored order is read back as it was asked, even if its GTT expiry passed while it waited.
const storedOrderSchema = createOrderRequestSchema({ now: () => 0 });

export function parseOrder(profileId: string, input: unknown): Create {
  const request = parseOr400(orderSchema, input);
  return { kind: "order", profileId, request: { ...request, ref_id: request.ref_id ?? newRefId() } };
}

export function parseTransfer(input: unknown): Create {
  const request = parseOr400(createInternalTransferRequestSchema, input);
  const withRef = { ...request, ref_id: request.ref_id ?? newRefId() };
  return { kind: "transfer", profileId: request.from_profile_id, request: withRef };
}

/**
 * A create as the journal or an approval stored it (checked when it was asked), read back for
 * a declined answer or an approver's send. Its ref_id was stored with it.
 */
export function storedCreate(kind: "order" | "transfer", profileId: string, request: unknown): Create {
  if (kind === "order") {
    const order = parseOr400(storedOrderSchema, request);
    return { kind, profileId, request: { ...order, ref_id: storedRefId(order.ref_id) } };
  }
  const transfer = parseOr400(createInternalTransferRequestSchema, request);
  return { kind, profileId, request: { ...transfer, ref_id: storedRefId(transfer.ref_id) } };
}

function storedRefId(refId: string | undefined): string {
  if (refId) return refId;
  throw fieldProblem("request.ref_id", "Required");
}
