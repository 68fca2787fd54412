import { decimalProblem, isMultipleOf, scaleOf } from "./decimal";
import {
  MARKETS,
  ORDER_SIDES,
  ORDER_TYPES,
  ORDER_TYPE_WORDS,
  TIMES_IN_FORCE,
  type Market,
  type OrderSide,
  type OrderType,
  type TimeInForce,
} from "./enums";
import { GTT_MIN_LEAD_MILLIS } from "./limits";
import { BASE_AMOUNT_SCALE, MARKET_DETAILS, marketLabel, QUOTE_AMOUNT_SCALE } from "./markets";
import { EXPIRATION_DATE_PATTERN, isGttExpiryFarEnough, timeInForceFor } from "./time-in-force";

/**
 * The Create Order rules that span fields, as pure functions with no schema library:
 * the order ticket uses them to lay itself out, and the schema (order.ts) to refuse.
 */

/** The quantity fields whose presence depends on the order type and side. */
export type QuantityField = "price" | "base_amount" | "quote_amount" | "stop_price";

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
 * (as the published service documents them). Only one quantity is ever sent.
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
function describeOrderKind(type: OrderType, side?: OrderSide): string {
  const sideWord = type === "MARKET" && side ? ` ${side.toLowerCase()}` : "";
  return `a ${ORDER_TYPE_WORDS[type]}${sideWord} order`;
}

export interface RuleViolation {
  path: string[];
  message: string;
}

/** The raw request as the cross-field rules see it: any field may be missing or malformed. */
export type RawOrder = Partial<Record<string, unknown>>;

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
      out.push({
        path: [f],
        message: `${FIELD_LABELS[f]} must be a multiple of ${tick}, the tick size of ${marketLabel(market)}`,
      });
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
