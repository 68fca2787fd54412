import * as z from "zod/mini";
import { BATCH_MAX_ROWS, BATCH_REF_ID_MAX_CHARS } from "@/lib/shared/batch-rows";
import { createInternalTransferRequestSchema, createOrderRequestSchema, identifier, refIdSchema } from "@/lib/spec";

/**
 * The shapes the document needs that no route parses with one zod schema of its own, made of
 * the schemas the routes do parse with, so that they cannot drift apart.
 */

const transfer = createInternalTransferRequestSchema.shape;

/**
 * A batch as JSON (lib/shared/batch-json.ts reads it field by field; each row is then parsed
 * with createInternalTransferRequestSchema): its ref_id, and at most BATCH_MAX_ROWS transfers.
 */
export const batchJsonSchema = z.strictObject({
  ref_id: refIdSchema.check(z.maxLength(BATCH_REF_ID_MAX_CHARS)),
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
