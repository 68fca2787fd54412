import { z } from "zod";
import { BASE_AMOUNT_SCALE, MARKET_DETAILS, QUOTE_AMOUNT_SCALE } from "./markets";
import { decimalProblem, isMultipleOf, positiveDecimal, recordDecimal, scaleOf } from "./decimal";
import {
  MARKETS,
  ORDER_SIDES,
  ORDER_TYPES,
  ORDER_TYPE_WORDS,
  TIMES_IN_FORCE,
  marketSchema,
  orderSideSchema,
  orderStatusSchema,
  orderTypeSchema,
  timeInForceSchema,
  type Market,
  type OrderSide,
  type OrderType,
  type TimeInForce,
} from "./enums";
import { identifier, metadataSchema, refIdSchema, text } from "./fields";
import { AWAIT_FILL_MAX_MILLIS, GTT_MIN_LEAD_MILLIS, SELF_MATCH_PREVENTION_ID_MAX_CHARS } from "./limits";
import { EXPIRATION_DATE_PATTERN, isGttExpiryFarEnough, timeInForceFor } from "./time-in-force";

/** The quantity fields whose presence depends on the order type and side. */
export const QUANTITY_FIELDS = ["price", "base_amount", "quote_amount", "stop_price"] as const;
export type QuantityField = (typeof QUANTITY_FIELDS)[number];

export const FIELD_LABELS: Record<QuantityField, string> = {
  price: "Price",
  base_amount: "Base amount",
  quote_amount: "Quote amount",
  stop_price: "Stop price",
};

interface QuantityRule {
  required: readonly QuantityField[];
  refused: readonly QuantityField[];
}

const LIMIT_RULE: QuantityRule = { required: ["price", "base_amount"], refused: ["quote_amount", "stop_price"] };

/**
 * Which of price, base_amount, quote_amount and stop_price each order type needs and refuses
 * (the published service's rules; SPEC.md leaves them open). Only one quantity is ever sent.
 */
export function quantityRuleFor(type: OrderType, side: OrderSide): QuantityRule {
  switch (type) {
    case "LIMIT":
    case "POST_ONLY_LIMIT":
      return LIMIT_RULE;
    case "MARKET":
      return side === "BUY"
        ? { required: ["quote_amount"], refused: ["price", "base_amount", "stop_price"] }
        : { required: ["base_amount"], refused: ["price", "quote_amount", "stop_price"] };
    case "STOP_MARKET":
      return { required: ["stop_price", "base_amount"], refused: ["price", "quote_amount"] };
    case "STOP_LIMIT":
      return { required: ["stop_price", "base_amount", "price"], refused: ["quote_amount"] };
  }
}

/** Stop orders are sell stop-loss orders. */
export const sidesFor = (type: OrderType): readonly OrderSide[] => (type.startsWith("STOP_") ? ["SELL"] : ORDER_SIDES);

/** "a limit order", "a market buy order": how messages name an order. */
export function describeOrderKind(type: OrderType, side?: OrderSide): string {
  const sideWord = type === "MARKET" && side ? ` ${side.toLowerCase()}` : "";
  return `a ${ORDER_TYPE_WORDS[type]}${sideWord} order`;
}

const fields = {
  side: orderSideSchema,
  market: marketSchema,
  type: orderTypeSchema,
  ref_id: refIdSchema.optional(),
  base_amount: positiveDecimal("Base amount").optional(),
  price: positiveDecimal("Price").optional(),
  quote_amount: positiveDecimal("Quote amount").optional(),
  metadata: metadataSchema("Metadata").optional(),
  await_fill_millis: z
    .number({ error: "Wait for fill must be a whole number of milliseconds" })
    .int("Wait for fill must be a whole number of milliseconds")
    .min(0, "Wait for fill must not be negative")
    .max(AWAIT_FILL_MAX_MILLIS, `Wait for fill may be at most ${AWAIT_FILL_MAX_MILLIS} ms (10 seconds)`)
    .optional(),
  time_in_force: timeInForceSchema.optional(),
  expiration_date: text("Expiration date")
    .regex(EXPIRATION_DATE_PATTERN, "Expiration date must be 13 digits of unix time in milliseconds (UTC)")
    .optional(),
  identity_id: identifier("Identity ID").optional(),
  identity_account_id: identifier("Identity account ID").optional(),
  stop_price: positiveDecimal("Stop price").optional(),
  recipient_profile_id: identifier("Recipient profile ID").optional(),
  self_match_prevention_id: text("Self-match prevention ID")
    .min(1, "Self-match prevention ID must not be empty")
    .max(
      SELF_MATCH_PREVENTION_ID_MAX_CHARS,
      `Self-match prevention ID may be at most ${SELF_MATCH_PREVENTION_ID_MAX_CHARS} characters`,
    )
    .optional(),
};

export interface RuleViolation {
  path: string[];
  message: string;
}

/** The raw request as the cross-field rules see it: any field may be missing or malformed. */
type RawOrder = Partial<Record<keyof typeof fields, unknown>>;

const isOneOf = <T extends string>(values: readonly T[], v: unknown): v is T =>
  typeof v === "string" && (values as readonly string[]).includes(v);
const isDecimal = (v: unknown): v is string => typeof v === "string" && decimalProblem(v) === null;

function quantityViolations(o: RawOrder, type: OrderType, side: OrderSide): RuleViolation[] {
  const rule = quantityRuleFor(type, side);
  const kind = describeOrderKind(type, side);
  const out: RuleViolation[] = [];
  for (const f of rule.required) {
    if (o[f] === undefined) out.push({ path: [f], message: `${FIELD_LABELS[f]} is required for ${kind}` });
  }
  for (const f of rule.refused) {
    if (o[f] !== undefined) out.push({ path: [f], message: `${FIELD_LABELS[f]} is not accepted for ${kind}` });
  }
  return out;
}

function precisionViolations(o: RawOrder, market: Market | undefined): RuleViolation[] {
  const out: RuleViolation[] = [];
  if (isDecimal(o.base_amount) && scaleOf(o.base_amount) > BASE_AMOUNT_SCALE) {
    out.push({ path: ["base_amount"], message: `Base amount may have at most ${BASE_AMOUNT_SCALE} decimal places` });
  }
  if (isDecimal(o.quote_amount) && scaleOf(o.quote_amount) > QUOTE_AMOUNT_SCALE) {
    out.push({ path: ["quote_amount"], message: `Quote amount may have at most ${QUOTE_AMOUNT_SCALE} decimal places` });
  }
  if (!market) return out;
  const tick = MARKET_DETAILS[market].tick_rate;
  for (const f of ["price", "stop_price"] as const) {
    const value = o[f];
    if (isDecimal(value) && !isMultipleOf(value, tick)) {
      out.push({ path: [f], message: `${FIELD_LABELS[f]} must be a multiple of ${tick}, the tick size of ${market}` });
    }
  }
  return out;
}

function timeInForceViolations(o: RawOrder, type: OrderType | undefined, nowMillis: number): RuleViolation[] {
  const out: RuleViolation[] = [];
  const sent = isOneOf(TIMES_IN_FORCE, o.time_in_force) ? o.time_in_force : undefined;
  if (type && sent && !timeInForceFor(type).valid.includes(sent)) {
    const choices = timeInForceFor(type).valid.join(" or ");
    out.push({
      path: ["time_in_force"],
      message: `${sent} is not valid for ${describeOrderKind(type)}; choose ${choices}`,
    });
  }
  const effective: TimeInForce | undefined = sent ?? (type ? timeInForceFor(type).default : undefined);
  const expiry = o.expiration_date;
  if (effective === "GTT" && expiry === undefined) {
    out.push({ path: ["expiration_date"], message: "Expiration date is required for a GTT order" });
  }
  if (effective !== undefined && effective !== "GTT" && expiry !== undefined) {
    out.push({ path: ["expiration_date"], message: "Expiration date is accepted only with time in force GTT" });
  }
  const wellFormed = typeof expiry === "string" && EXPIRATION_DATE_PATTERN.test(expiry);
  if (effective === "GTT" && wellFormed && !isGttExpiryFarEnough(expiry, nowMillis)) {
    out.push({
      path: ["expiration_date"],
      message: `A GTT order must expire more than ${GTT_MIN_LEAD_MILLIS / 1000} seconds from now`,
    });
  }
  return out;
}

function identityViolations(o: RawOrder): RuleViolation[] {
  if (o.identity_id !== undefined && o.identity_account_id === undefined) {
    return [{ path: ["identity_account_id"], message: "Identity account ID is required when an identity ID is sent" }];
  }
  if (o.identity_account_id !== undefined && o.identity_id === undefined) {
    return [{ path: ["identity_id"], message: "Identity ID is required when an identity account ID is sent" }];
  }
  return [];
}

/**
 * Every rule that spans more than one field. It runs even when single fields are invalid,
 * so a form shows all its problems at once; each check skips fields it cannot read.
 */
export function orderRuleViolations(o: RawOrder, nowMillis: number): RuleViolation[] {
  const type = isOneOf(ORDER_TYPES, o.type) ? o.type : undefined;
  const side = isOneOf(ORDER_SIDES, o.side) ? o.side : undefined;
  const market = isOneOf(MARKETS, o.market) ? o.market : undefined;
  const out: RuleViolation[] = [];
  if (type && side && !sidesFor(type).includes(side)) {
    out.push({ path: ["side"], message: `${describeOrderKind(type)} is a sell stop-loss: side must be SELL` });
  }
  if (type && side) out.push(...quantityViolations(o, type, side));
  out.push(...precisionViolations(o, market));
  out.push(...timeInForceViolations(o, type, nowMillis));
  out.push(...identityViolations(o));
  return out.map((v) => ({ ...v, message: v.message.charAt(0).toUpperCase() + v.message.slice(1) }));
}

export interface SchemaOptions {
  /** The clock GTT expiry is judged against; tests pin it. */
  now?: () => number;
}

/** The Create Order request (SPEC.md 4.1) with every rule of the service. */
export function createOrderRequestSchema({ now = Date.now }: SchemaOptions = {}) {
  return z.strictObject(fields).superRefine(
    (order, ctx) => {
      for (const v of orderRuleViolations(order as RawOrder, now())) {
        ctx.addIssue({ code: "custom", path: v.path, message: v.message, input: order });
      }
    },
    { when: () => true },
  );
}

export type CreateOrderRequest = z.infer<ReturnType<typeof createOrderRequestSchema>>;

/** The Order record as the service returns it (SPEC.md 2.1). Unknown fields pass through. */
export const orderRecordSchema = z.looseObject({
  id: z.string(),
  profile_id: z.string(),
  ref_id: z.string().optional(),
  status: orderStatusSchema,
  side: orderSideSchema,
  market: marketSchema,
  type: orderTypeSchema,
  base_amount: recordDecimal,
  price: recordDecimal,
  quote_amount: recordDecimal,
  metadata: z.record(z.string(), z.string()).optional(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }),
  amount_filled: recordDecimal,
  volume_weighted_average_price: recordDecimal,
  time_in_force: timeInForceSchema,
  expiration_date: z.union([z.iso.datetime({ offset: true }), z.literal("")]).optional(),
  identity_id: z.string().optional(),
  identity_account_id: z.string().optional(),
  stop_price: recordDecimal.optional(),
  recipient_profile_id: z.string().optional(),
  is_triggered: z.boolean().optional(),
});

export type Order = z.infer<typeof orderRecordSchema>;
