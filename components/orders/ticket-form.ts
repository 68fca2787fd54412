import type { FieldErrors } from "react-hook-form";
import { toUnixMillis } from "@/lib/client/format";
import type { Market, OrderSide, OrderType, TimeInForce } from "@/lib/spec/enums";
import type { CreateOrderRequest } from "@/lib/spec/order";
import { quantityRuleFor } from "@/lib/spec/order-rules";
import { timeInForceFor } from "@/lib/spec/time-in-force";
import { newRefId } from "@/lib/ref-id";
import { duplicateKey, metadataOf, type MetadataRow } from "../forms/metadata";
import { specResolver, type FormOutput } from "../forms/spec-resolver";

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
}

/** What the ticket hands over: the request, and the profile whose path it is sent to. */
export interface TicketOutput extends FormOutput<CreateOrderRequest> {
  profileId: string;
}

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

/** Keeps the time in force valid when the order type changes: the type's default otherwise. */
export const timeInForceAfterTypeChange = (type: OrderType, current: TimeInForce): TimeInForce =>
  timeInForceFor(type).valid.includes(current) ? current : timeInForceFor(type).default;

/** The form's own rules beyond the service's: a profile to place the order from, unique metadata keys. */
function ticketErrors(v: TicketValues): FieldErrors<TicketValues> {
  const errors: FieldErrors<TicketValues> = {};
  if (!v.profile_id) errors.profile_id = { type: "required", message: "Choose the profile that places the order" };
  const repeated = duplicateKey(v.metadata);
  if (repeated) errors.metadata = { type: "duplicate", message: `Metadata key "${repeated}" is used twice` };
  return errors;
}

/** The ticket checked against lib/spec's Create Order schema; it hands over the profile and the request. */
export const ticketResolver = specResolver<TicketValues, CreateOrderRequest, TicketOutput>({
  schema: () => import("@/lib/spec/order").then((m) => m.createOrderRequestSchema()),
  toRequest: toOrderRequest,
  formErrors: ticketErrors,
  output: (request, v) => ({ profileId: v.profile_id, request }),
});
