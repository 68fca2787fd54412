import * as z from "zod/mini";
import { marketSchema, orderSideSchema, orderStatusSchema, orderTypeSchema, timeInForceSchema } from "./enum-schemas";
import { identifier, metadataSchema, positiveDecimal, recordDecimal, refIdSchema, text } from "./fields";
import { AWAIT_FILL_MAX_MILLIS, SELF_MATCH_PREVENTION_ID_MAX_CHARS } from "./limits";
import { orderRuleViolations, type RawOrder } from "./order-rules";
import { EXPIRATION_DATE_PATTERN } from "./time-in-force";

const opt = z.optional;

const fields = {
  side: orderSideSchema,
  market: marketSchema,
  type: orderTypeSchema,
  ref_id: opt(refIdSchema),
  base_amount: opt(positiveDecimal("Base amount")),
  price: opt(positiveDecimal("Price")),
  quote_amount: opt(positiveDecimal("Quote amount")),
  metadata: opt(metadataSchema("Metadata")),
  await_fill_millis: opt(
    z
      .number({ error: "Wait for fill must be a whole number of milliseconds" })
      .check(
        z.refine(Number.isInteger, "Wait for fill must be a whole number of milliseconds"),
        z.gte(0, "Wait for fill must not be negative"),
        z.lte(AWAIT_FILL_MAX_MILLIS, `Wait for fill may be at most ${AWAIT_FILL_MAX_MILLIS} ms (10 seconds)`),
      ),
  ),
  time_in_force: opt(timeInForceSchema),
  expiration_date: opt(
    text("Expiration date").check(
      z.regex(EXPIRATION_DATE_PATTERN, "Expiration date must be 13 digits of unix time in milliseconds (UTC)"),
    ),
  ),
  identity_id: opt(identifier("Identity ID")),
  identity_account_id: opt(identifier("Identity account ID")),
  stop_price: opt(positiveDecimal("Stop price")),
  recipient_profile_id: opt(identifier("Recipient profile ID")),
  self_match_prevention_id: opt(
    text("Self-match prevention ID").check(
      z.minLength(1, "Self-match prevention ID must not be empty"),
      z.maxLength(
        SELF_MATCH_PREVENTION_ID_MAX_CHARS,
        `Self-match prevention ID may be at most ${SELF_MATCH_PREVENTION_ID_MAX_CHARS} characters`,
      ),
    ),
  ),
};

export interface SchemaOptions {
  /** The clock GTT expiry is judged against; tests pin it. */
  now?: () => number;
}

/** The Create Order request (`POST /profiles/{id}/orders`) with every rule of the service. */
export function createOrderRequestSchema({ now = Date.now }: SchemaOptions = {}) {
  return z.strictObject(fields).check(
    z.superRefine(
      (order, ctx) => {
        for (const v of orderRuleViolations(order as RawOrder, now())) {
          ctx.addIssue({ code: "custom", path: v.path, message: v.message, input: order });
        }
      },
      { when: () => true },
    ),
  );
}

export type CreateOrderRequest = z.infer<ReturnType<typeof createOrderRequestSchema>>;

/** The Order record as the service returns it. Unknown fields pass through. */
const isoTime = z.iso.datetime({ offset: true });

export const orderRecordSchema = z.looseObject({
  id: z.string(),
  profile_id: z.string(),
  ref_id: opt(z.string()),
  status: orderStatusSchema,
  side: orderSideSchema,
  market: marketSchema,
  type: orderTypeSchema,
  base_amount: recordDecimal,
  price: recordDecimal,
  quote_amount: recordDecimal,
  metadata: opt(z.record(z.string(), z.string())),
  created_at: isoTime,
  modified_at: isoTime,
  amount_filled: recordDecimal,
  volume_weighted_average_price: recordDecimal,
  time_in_force: timeInForceSchema,
  expiration_date: opt(z.union([isoTime, z.literal("")])),
  identity_id: opt(z.string()),
  identity_account_id: opt(z.string()),
  stop_price: opt(recordDecimal),
  recipient_profile_id: opt(z.string()),
  is_triggered: opt(z.boolean()),
});

export type Order = z.infer<typeof orderRecordSchema>;
