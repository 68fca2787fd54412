import "server-only";
import { compareDecimal, DECIMAL_PATTERN, isProblem } from "@/lib/spec";

/**
 * Is a record the service holds for our ref_id the one our request made? Asked after a 409
 * "already exists" or a lost answer, it decides between answering with that record and telling
 * the person the ref_id belongs to something else. So records are compared by meaning, not by
 * their text: the service writes an unused amount as "" in one answer and "0" in another (the
 * published Create Order and List Orders examples), leaves fields out of a 409's
 * `meta.existing`, and writes "10" for a request's "10.00".
 *
 * Pure helpers: the create path (lib/server/create/pipeline.ts) is their caller.
 */

/** The fields of a Create Order request a record is compared on. */
export interface OrderRequestFields {
  ref_id?: string;
  side: string;
  market: string;
  type: string;
  base_amount?: string;
  quote_amount?: string;
  price?: string;
  stop_price?: string;
}

/** The fields of a Create Internal Transfer request a record is compared on. */
export interface TransferRequestFields {
  ref_id?: string;
  from_profile_id: string;
  to_profile_id: string;
  asset: string;
  amount: string;
}

const ORDER_AMOUNTS = ["base_amount", "quote_amount", "price", "stop_price"] as const;

/** True when `record` is the order `request` made for `profileId`. */
export function isSameOrder(profileId: string, request: OrderRequestFields, record: unknown): boolean {
  if (!isRecord(record)) return false;
  return (
    agrees(record.profile_id, profileId) &&
    agrees(record.ref_id, request.ref_id) &&
    agrees(record.side, request.side) &&
    agrees(record.market, request.market) &&
    agrees(record.type, request.type) &&
    ORDER_AMOUNTS.every((field) => sameAmount(request[field], record[field]))
  );
}

/** True when `record` (either leg: the DEBIT of the sender, the CREDIT of the receiver) is the transfer `request` made. */
export function isSameTransfer(request: TransferRequestFields, record: unknown): boolean {
  if (!isRecord(record)) return false;
  const profile = record.direction === "CREDIT" ? request.to_profile_id : request.from_profile_id;
  return (
    agrees(record.profile_id, profile) &&
    agrees(record.ref_id, request.ref_id) &&
    agrees(record.asset, request.asset) &&
    sameAmount(request.amount, record.amount)
  );
}

/**
 * True when two amounts mean the same: "", "0" (any zero), null and an absent field are all
 * "unset"; decimals are equal as numbers ("10" and "10.00"). Anything that is not a decimal
 * string is never the same as anything.
 */
export function sameAmount(a: unknown, b: unknown): boolean {
  const x = amountMeaning(a);
  const y = amountMeaning(b);
  if (x === NOT_AN_AMOUNT || y === NOT_AN_AMOUNT) return false;
  if (x === UNSET || y === UNSET) return x === y;
  return compareDecimal(x, y) === 0;
}

/**
 * The record a 409 carries in `meta.existing` (the published Create Order 409 does; the
 * published Create Internal Transfer 409 does not), or undefined: then look it up by ref_id.
 */
export function existingRecordOf(body: unknown): Record<string, unknown> | undefined {
  if (!isProblem(body) || body.status !== 409) return undefined;
  const existing = body.meta?.existing;
  return isRecord(existing) ? existing : undefined;
}

const UNSET = Symbol("unset");
const NOT_AN_AMOUNT = Symbol("not an amount");

function amountMeaning(value: unknown): string | typeof UNSET | typeof NOT_AN_AMOUNT {
  if (value === undefined || value === null || value === "") return UNSET;
  if (typeof value !== "string" || !DECIMAL_PATTERN.test(value)) return NOT_AN_AMOUNT;
  return /[1-9]/.test(value) ? value : UNSET;
}

/**
 * A field of the record agrees with what we sent when it says the same, or says nothing: the
 * published 409's `meta.existing` leaves out `type`, and amounts then decide.
 */
const agrees = (value: unknown, expected: string | undefined) =>
  value === undefined || value === null || expected === undefined || value === expected;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
