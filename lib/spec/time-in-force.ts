import type { OrderType, TimeInForce } from "./enums";
import { GTT_MIN_LEAD_MILLIS } from "./limits";

/** The service's time-in-force table: which choices each order type takes, and its default. */
export interface TimeInForceRule {
  valid: readonly TimeInForce[];
  default: TimeInForce;
}

const TABLE: Record<OrderType, TimeInForceRule> = {
  MARKET: { valid: ["IOC"], default: "IOC" },
  LIMIT: { valid: ["GTC", "IOC", "GTT", "FOK"], default: "GTC" },
  POST_ONLY_LIMIT: { valid: ["GTC", "IOC", "GTT", "FOK"], default: "GTC" },
  STOP_MARKET: { valid: ["GTC", "GTT"], default: "GTC" },
  STOP_LIMIT: { valid: ["GTC", "GTT"], default: "GTC" },
};

export const timeInForceFor = (type: OrderType): TimeInForceRule => TABLE[type];

/** The time in force the service applies when none is sent. */
export const effectiveTimeInForce = (type: OrderType, tif: TimeInForce | undefined): TimeInForce =>
  tif ?? TABLE[type].default;

/** A GTT expiry is 13 digits of unix milliseconds (UTC). */
export const EXPIRATION_DATE_PATTERN = /^\d{13}$/;

/** True when a GTT expiry is more than 10 seconds after `nowMillis`. */
export const isGttExpiryFarEnough = (expirationDate: string, nowMillis: number): boolean =>
  BigInt(expirationDate) - BigInt(nowMillis) > BigInt(GTT_MIN_LEAD_MILLIS);
