import type { FieldErrors, Resolver } from "react-hook-form";
import { formatAmount, formatTime, toUnixMillis } from "@/lib/shared/format";
import { compareDecimal, decimalProblem, divideDecimalDown, percentOfDown } from "@/lib/spec/decimal";
import type { Market, OrderSide, OrderType, TimeInForce } from "@/lib/spec/enums";
import { GTT_MIN_LEAD_MILLIS } from "@/lib/spec/limits";
import { BASE_AMOUNT_SCALE, MARKET_DETAILS, QUOTE_AMOUNT_SCALE } from "@/lib/spec/markets";
import type { CreateOrderRequest } from "@/lib/spec/order";
import type { ParentOrderRequest } from "@/lib/shared/parent-order";
import { quantityRuleFor, type QuantityField } from "@/lib/spec/order-rules";
import { timeInForceFor } from "@/lib/spec/time-in-force";
import { orderValueInUsd, type Mids } from "@/lib/spec/valuation";
import { newRefId } from "@/lib/shared/ref-id";
import { duplicateKey, metadataOf, type MetadataRow } from "../forms/metadata";
import { specResolver } from "../forms/spec-resolver";
import { durationSecondsOf, slicesOf, type DurationUnit } from "./describe-parent-order";

/** The ticket's fields as the browser holds them: text, named like the request's fields. */
export interface TicketValues {
  profile_id: string;
  market: Market;
  side: OrderSide;
  type: OrderType;
  price: string;
  base_amount: string;
  quote_amount: string;
  stop_price: string;
  time_in_force: TimeInForce;
  /** A datetime-local value (local time); sent as 13-digit unix ms. */
  expiration_date: string;
  ref_id: string;
  metadata: MetadataRow[];
  identity_id: string;
  identity_account_id: string;
  recipient_profile_id: string;
  self_match_prevention_id: string;
  await_fill_millis: string;
  /** "Work over time": a limit order worked as a TWAP parent order in slices (issue 29). */
  over_time: boolean;
  /** The parent's duration as typed, in `duration_unit`; sent as whole seconds. */
  duration: string;
  duration_unit: DurationUnit;
  slices: string;
}

/**
 * What the ticket hands over: an order's request and the profile whose path it is sent to, or
 * a TWAP parent order's request (POST /api/parent-orders), its profile inside it.
 */
export type TicketOutput =
  | { kind: "order"; profileId: string; request: CreateOrderRequest }
  | { kind: "parent"; profileId: string; request: ParentOrderRequest };

export const ticketDefaults = (): TicketValues => ({
  profile_id: "",
  market: "BTCUSD",
  side: "BUY",
  type: "LIMIT",
  price: "",
  base_amount: "",
  quote_amount: "",
  stop_price: "",
  time_in_force: "GTC",
  expiration_date: "",
  ref_id: newRefId(),
  metadata: [],
  identity_id: "",
  identity_account_id: "",
  recipient_profile_id: "",
  self_match_prevention_id: "",
  await_fill_millis: "",
  over_time: false,
  duration: "",
  duration_unit: "minutes",
  slices: "",
});

const OPTIONAL_TEXT = [
  "ref_id",
  "identity_id",
  "identity_account_id",
  "recipient_profile_id",
  "self_match_prevention_id",
] as const;

/**
 * The request the ticket would send: only the quantities the order type uses, the time in
 * force, and the options filled in. Malformed text is passed on for the schema to name.
 */
export function toOrderRequest(v: TicketValues): Record<string, unknown> {
  const request: Record<string, unknown> = { side: v.side, market: v.market, type: v.type };
  for (const field of quantityRuleFor(v.type, v.side).required) {
    const value = v[field].trim();
    if (value) request[field] = value;
  }
  request.time_in_force = v.time_in_force;
  if (v.time_in_force === "GTT" && v.expiration_date) request.expiration_date = toUnixMillis(v.expiration_date);
  for (const field of OPTIONAL_TEXT) if (v[field].trim()) request[field] = v[field].trim();
  const metadata = metadataOf(v.metadata);
  if (metadata) request.metadata = metadata;
  const wait = v.await_fill_millis.trim();
  if (wait) request.await_fill_millis = /^\d{1,6}$/.test(wait) ? Number(wait) : wait;
  return request;
}

/** The time in force the person picked in the select, per order type; nothing else counts as a pick. */
export type TimeInForceChoices = Partial<Record<OrderType, TimeInForce>>;

/**
 * The time in force once the order type changes: the person's own pick for the new type, else
 * the type's default. Never the old type's value, even where the new type takes it: a Market
 * order's IOC carried onto a Limit would cancel at once the bid the trader meant to rest.
 */
export function timeInForceAfterTypeChange(type: OrderType, choices: TimeInForceChoices): TimeInForce {
  const { valid, default: fallback } = timeInForceFor(type);
  const chosen = choices[type];
  return chosen && valid.includes(chosen) ? chosen : fallback;
}

/** The GTT expiry the picker holds, in UTC and in local time: "2026-11-23 17:04:28 UTC · 2026-11-23 18:04:28 GMT+1". */
export function expiryInBothZones(local: string): string | undefined {
  const ms = toUnixMillis(local);
  return /^\d+$/.test(ms) ? `${formatTime(Number(ms), "UTC")} · ${formatTime(Number(ms), "local")}` : undefined;
}

/**
 * A GTT expiry that passed, or came within the service's 10 s minimum, while the review was
 * open: checked again at Confirm, so the order goes back to its expiration field unsent.
 */
export function staleExpiry(r: CreateOrderRequest, now = Date.now()): string | undefined {
  if (r.time_in_force !== "GTT" || !r.expiration_date) return undefined;
  if (Number(r.expiration_date) - now > GTT_MIN_LEAD_MILLIS) return undefined;
  return "The expiry passed, or is now less than 10 seconds away, while the review was open: choose a later time";
}

/** A sell stop at or above the last trade triggers the moment it is placed: a warning, not a refusal. */
export function stopTriggersAtOnce(v: TicketValues, lastTrade: string | undefined): string | undefined {
  const stop = v.stop_price.trim();
  if (!v.type.startsWith("STOP_") || v.side !== "SELL" || decimalProblem(stop) !== null) return undefined;
  if (!lastTrade || decimalProblem(lastTrade) !== null) return undefined;
  const where = compareDecimal(stop, lastTrade);
  if (where < 0) return undefined;
  const last = formatAmount(lastTrade, { min: 2 });
  return `This stop is ${where === 0 ? "at" : "above"} the last trade (${last}): it would trigger at once.`;
}

const isDecimal = (v: string) => v !== "" && decimalProblem(v) === null;

/**
 * What the ticket's order is worth in USD by the controls' own rule (`orderValueInUsd`: its
 * quantity at the larger of its own price and the mid, a market buy at its quote amount), at
 * the mids the page has: the figure the review's "Worth about" gives, estimated before it.
 * Undefined until every quantity the order type needs is typed, or without the prices.
 */
export function estimateWorthUsd(v: TicketValues, mids: Mids): string | undefined {
  const needed = quantityRuleFor(v.type, v.side).required;
  if (!needed.every((field) => isDecimal(v[field]))) return undefined;
  const typed = Object.fromEntries(needed.map((field) => [field, v[field]]));
  return orderValueInUsd({ market: v.market, side: v.side, type: v.type, ...typed }, mids);
}

/** A quote amount, a sell's base amount, or a buy's base amount once its price is typed: what a share of the balance can fill. */
export const fillsFromBalance = (field: QuantityField, v: TicketValues): boolean =>
  field === "quote_amount" || (field === "base_amount" && (v.side === "SELL" || isDecimal(v.price)));

/**
 * `percent` of the balance as the amount of `field`: a quote amount from the quote asset, a
 * sell's base amount from the base asset, a buy's from the quote asset at the typed price.
 * Rounded down to the field's scale, so it never asks for more than the profile holds;
 * undefined while the balance (or a buy's price) is unknown.
 */
export function amountFromBalance(
  field: QuantityField,
  percent: number,
  v: TicketValues,
  balances: readonly { asset: string; available: string }[] | undefined,
): string | undefined {
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[v.market];
  const available = (asset: string) => balances?.find((b) => b.asset === asset)?.available || undefined;
  if (field !== "quote_amount" && v.side === "SELL") {
    const held = available(base);
    return held && percentOfDown(held, percent, BASE_AMOUNT_SCALE);
  }
  const held = available(quote);
  if (!held) return undefined;
  const budget = percentOfDown(held, percent, QUOTE_AMOUNT_SCALE);
  if (field === "quote_amount") return budget;
  return isDecimal(v.price) ? divideDecimalDown(budget, v.price, BASE_AMOUNT_SCALE) : undefined;
}

/** The focused element as far as shortcuts care: a tag, an input type, contenteditable. */
interface KeyTarget {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
  closest?: (selector: string) => unknown;
}
const TYPING_INPUTS = /^(?:text|search|email|password|number|tel|url|date|datetime-local|month|time|week)$/;

/**
 * B and S set the ticket's side, unless the key is meant for something else: a modifier held,
 * or focus in a text field, a select, a text area or a dialog.
 */
export function sideForKey(e: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: unknown;
}): OrderSide | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  const side = ({ b: "BUY", s: "SELL" } as const)[e.key.toLowerCase() as "b" | "s"];
  const t = (e.target ?? {}) as KeyTarget;
  const tag = t.tagName?.toUpperCase();
  const typing =
    tag === "TEXTAREA" ||
    tag === "SELECT" ||
    (tag === "INPUT" && TYPING_INPUTS.test(t.type ?? "text")) ||
    t.isContentEditable;
  if (!side || typing || t.closest?.('[role="dialog"]')) return undefined;
  return side;
}

/** The form's own rules beyond the service's: a profile to place the order from, unique metadata keys. */
function ticketErrors(v: TicketValues): FieldErrors<TicketValues> {
  const errors: FieldErrors<TicketValues> = {};
  if (!v.profile_id) errors.profile_id = { type: "required", message: "Choose the profile that places the order" };
  const repeated = duplicateKey(v.metadata);
  if (repeated) errors.metadata = { type: "duplicate", message: `Metadata key "${repeated}" is used twice` };
  return errors;
}

/** The ticket checked against lib/spec's Create Order schema; it hands over the profile and the request. */
const orderResolver = specResolver<TicketValues, CreateOrderRequest, TicketOutput>({
  schema: () => import("@/lib/spec/order").then((m) => m.createOrderRequestSchema()),
  toRequest: toOrderRequest,
  formErrors: ticketErrors,
  output: (request, v) => ({ kind: "order", profileId: v.profile_id, request }),
  checks: () =>
    import("../forms/funds").then(({ orderShortfall }) => (request, v, context) => {
      const short = orderShortfall(request, v.profile_id, context);
      return short ? { [short.field]: { type: "funds", message: short.message } } : {};
    }),
});

// ——— Work over time (issue 29) ———

/** Whether the ticket works its order over time: a limit order with "Work over time" chosen. */
export const worksOverTime = (v: Pick<TicketValues, "type" | "over_time">): boolean =>
  v.type === "LIMIT" && v.over_time;

/**
 * The parent request's fields the ticket shows under other names: the duration is typed in
 * minutes (or seconds, or hours) and sent in seconds; the cap is the limit order's own price
 * field. A rule refused in the browser or by the server lands on the field the person typed in.
 */
export const PARENT_FIELD_OF: Readonly<Record<string, keyof TicketValues>> = {
  duration_seconds: "duration",
  limit_price: "price",
};

/**
 * The TWAP parent order the ticket would send (POST /api/parent-orders): the limit order's
 * market, side, amount and price (the cap), the duration in whole seconds and the slices.
 * Malformed text is passed on for the schema to name.
 */
export function toParentRequest(v: TicketValues): Record<string, unknown> {
  const request: Record<string, unknown> = {
    profile_id: v.profile_id,
    market: v.market,
    side: v.side,
    strategy: "TWAP",
  };
  const set = (field: string, value: unknown) => {
    if (value !== undefined && value !== "") request[field] = value;
  };
  set("base_amount", v.base_amount.trim());
  set("limit_price", v.price.trim());
  set("duration_seconds", durationSecondsOf(v.duration, v.duration_unit));
  set("slices", slicesOf(v.slices));
  set("ref_id", v.ref_id.trim());
  return request;
}

/**
 * The parent as the controls weigh it, and as the review's dry run asks about it: one limit
 * order of its whole amount at its cap, immediate or cancel, as each child is
 * (lib/server/parent-orders/create.ts, wholeOf).
 */
export const wholeOrderOf = (r: ParentOrderRequest): CreateOrderRequest => ({
  market: r.market,
  side: r.side,
  type: "LIMIT",
  time_in_force: "IOC",
  base_amount: r.base_amount,
  price: r.limit_price,
});

/** "Work over time" checked against the parent order's own schema, the one the server parses with. */
const parentResolver = specResolver<TicketValues, ParentOrderRequest, TicketOutput>({
  schema: () => import("@/lib/shared/parent-order").then((m) => m.parentOrderRequestSchema),
  toRequest: toParentRequest,
  formErrors: (v) => {
    const { profile_id } = ticketErrors(v);
    return profile_id ? { profile_id } : {};
  },
  output: (request, v) => ({ kind: "parent", profileId: v.profile_id, request }),
  fieldOf: PARENT_FIELD_OF,
  checks: () =>
    import("../forms/funds").then(({ orderShortfall }) => (request, v, context) => {
      const short = orderShortfall(wholeOrderOf(request), v.profile_id, context);
      return short ? { [short.field]: { type: "funds", message: short.message } } : {};
    }),
});

/** The ticket's check: a limit order worked over time against the parent's schema, any other order against Create Order's. */
export const ticketResolver: Resolver<TicketValues, unknown, TicketOutput> = (values, context, options) =>
  (worksOverTime(values) ? parentResolver : orderResolver)(values, context, options);
