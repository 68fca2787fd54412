import * as z from "zod/mini";
import { newApiTokenSchema } from "@/lib/shared/api-tokens";
import { newWebhookSchema } from "@/lib/shared/webhooks";
import { notificationSettingsSchema } from "@/lib/shared/notifications";
import { parentOrderRequestSchema } from "@/lib/shared/parent-order";
import { BATCH_MAX_ROWS, BATCH_REF_ID_MAX_CHARS } from "@/lib/shared/batch-rows";
import { policySchema } from "@/lib/shared/policy";
import { rebalanceTargetsSchema } from "@/lib/shared/rebalance-targets";
import { declineRepeatBodySchema, rejectBodySchema } from "@/lib/server/http/route-schemas";
import { createInternalTransferRequestSchema, createOrderRequestSchema, identifier, refIdSchema } from "@/lib/spec";
import { named } from "./components";

/**
 * The request bodies the document names, and the problem: the schemas the routes parse with,
 * and the shapes no route parses with one zod schema of its own, made of those it does parse
 * with, so that they cannot drift apart.
 */

const transfer = createInternalTransferRequestSchema.shape;
/** A batch's ref_id: refIdSchema, with room for each row's default `<ref_id>-<row>`. */
const batchRefId = refIdSchema.check(z.maxLength(BATCH_REF_ID_MAX_CHARS));

/**
 * A batch as JSON (lib/shared/batch-json.ts reads it field by field; each row is then parsed
 * with createInternalTransferRequestSchema): its ref_id, and at most BATCH_MAX_ROWS transfers.
 */
export const batchJsonSchema = z.strictObject({
  ref_id: batchRefId,
  transfers: z
    .array(
      z.strictObject({
        from_profile_id: transfer.from_profile_id,
        to_profile_id: transfer.to_profile_id,
        asset: transfer.asset,
        amount: transfer.amount,
        ref_id: transfer.ref_id,
        metadata: transfer.metadata,
      }),
    )
    .check(z.minLength(1), z.maxLength(BATCH_MAX_ROWS)),
});

/** A batch sent as a CSV file names its ref_id in the query (lib/server/batches/read-request.ts). */
export const batchCsvQuerySchema = z.object({ ref_id: z.optional(batchRefId) });

/** `POST /api/orders/preview`: the profile, and the order as it would be sent. */
export const orderPreviewSchema = z.strictObject({
  profile_id: identifier("profile_id"),
  request: createOrderRequestSchema(),
});

/** One refused field of a problem's `meta.errors`. */
const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });

/** An RFC 9457 problem (lib/spec/problem.ts's Problem): every error the dashboard answers. */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.int().check(z.gte(400), z.lte(599)),
  detail: z.optional(z.string()),
  meta: z.optional(z.looseObject({ errors: z.optional(z.array(fieldErrorSchema)) })),
});

export const problem = named("Problem", problemSchema);

// One instance each: a held order's or transfer's request (answers.ts) is a $ref to the body's.
export const orderRequest = named("CreateOrderRequest", createOrderRequestSchema());
export const transferRequest = named("CreateInternalTransferRequest", createInternalTransferRequestSchema);
export const batchRequest = { ...named("BatchRequest", batchJsonSchema), csv: true };
export const policy = named("Policy", policySchema);
export const targets = named("RebalanceTargets", rebalanceTargetsSchema);
export const newToken = named("NewApiToken", newApiTokenSchema);
export const newWebhook = named("NewWebhook", newWebhookSchema);
/** One's own email notifications: the body PUT /api/notifications takes, and what both its methods answer. */
export const notificationSettings = named("NotificationSettings", notificationSettingsSchema);
export const reject = named("RejectRequest", rejectBodySchema);
export const orderPreview = named("OrderPreviewRequest", orderPreviewSchema);
export const declineRepeat = named("DeclineRepeat", declineRepeatBodySchema);
export const parentOrderRequest = named("ParentOrderRequest", parentOrderRequestSchema);
