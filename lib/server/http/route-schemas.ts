import * as z from "zod";
import * as zm from "zod/mini";
import { APPROVAL_STATUSES } from "@/lib/shared/approval";
import { rejectReasonSchema } from "@/lib/shared/reject-reason";
import {
  identifier,
  marketSchema,
  orderStatusSchema,
  refIdSchema,
  transferStatusSchema,
  transferTypeSchema,
} from "@/lib/spec";
import { SERVICE_MAX_LIMIT } from "../lists/page-walk";

/**
 * The schemas a route handler declares for itself (its query or body), kept here rather than in
 * the route file so that the OpenAPI document (lib/server/openapi/) is made from the very same ones.
 */

/** `GET /api/approvals`: `?status=PENDING` is the approvers' inbox. */
export const approvalsQuerySchema = z.object({
  status: z.enum(APPROVAL_STATUSES, { error: `status must be one of ${APPROVAL_STATUSES.join(", ")}` }).optional(),
});

/** `POST /api/approvals/{id}/reject`: the reason, kept and shown to the requester. */
export const rejectBodySchema = zm.strictObject({ reason: rejectReasonSchema });

/**
 * `POST /api/activity/declined` ("Don't send", lib/server/create/decline-repeat.ts): the create
 * not sent (an order's profile beside it), and the ref_id of the person's own earlier create it repeats.
 */
export const declineRepeatBodySchema = z.strictObject({
  kind: z.enum(["order", "transfer"], { error: "kind must be order or transfer" }),
  profile_id: z.optional(identifier("Profile ID")),
  request: z.record(z.string(), z.unknown(), { error: "request must be the create that was not sent" }),
  duplicate_of: refIdSchema,
});

/** `GET /api/events`, repeated parameters: `?profiles=A&profiles=B&markets=BTCUSD`. */
export const liveWantsQuerySchema = z.object({
  profiles: z.array(identifier("profiles")).max(50, "profiles may list at most 50 profiles").default([]),
  markets: z.array(marketSchema).max(50, "markets may list at most 50 markets").default([]),
});

/**
 * `GET /api/orders/{order_id}/quality`: the order's profile, when the caller knows it (the orders
 * table does), spares the back end looking for an order the dashboard did not send.
 */
export const orderQualityQuerySchema = z.object({ profile_id: z.optional(identifier("profile_id")) });

/** A page of a service list as its relay passes it on: the service's own `limit` and `page_cursor`. */
const servicePaging = {
  limit: z.optional(z.coerce.number().int().min(1).max(SERVICE_MAX_LIMIT)),
  page_cursor: z.optional(z.string()),
};
const ids = z.optional(z.array(z.string()));

/**
 * `GET /api/v2/orders`: what the relay passes on to the service's List Orders, which checks it
 * (the relay refuses any other name; queryNamesOf reads the names off this schema).
 */
export const relayedOrdersQuerySchema = z.object({
  profile_id: z.optional(z.string()),
  market: z.optional(marketSchema),
  status: z.optional(orderStatusSchema),
  ref_ids: ids,
  ...servicePaging,
});

/** `GET /api/v2/transfer/transfers`: what the relay passes on to List Transfers (the combinations it refuses, refused first). */
export const relayedTransfersQuerySchema = z.object({
  type: z.optional(transferTypeSchema),
  profile_ids: ids,
  ref_ids: ids,
  group_ids: ids,
  statuses: z.optional(z.array(transferStatusSchema)),
  ...servicePaging,
});
