import * as z from "zod/mini";
import {
  CRYPTO_NETWORKS,
  MARKETS,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  TIMES_IN_FORCE,
  TRANSFER_DIRECTIONS,
  TRANSFER_STATUSES,
  TRANSFER_TYPES,
} from "./enums";

/** An enum schema whose error lists the accepted values, so the message names the rule. */
function oneOf<const T extends readonly [string, ...string[]]>(values: T, label: string) {
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined ? `${label} is required` : `${label} must be one of ${values.join(", ")}`,
  });
}

export const marketSchema = oneOf(MARKETS, "Market");
export const orderSideSchema = oneOf(ORDER_SIDES, "Side");
export const orderTypeSchema = oneOf(ORDER_TYPES, "Order type");
export const orderStatusSchema = oneOf(ORDER_STATUSES, "Order status");
export const timeInForceSchema = oneOf(TIMES_IN_FORCE, "Time in force");
export const transferDirectionSchema = oneOf(TRANSFER_DIRECTIONS, "Direction");
export const transferStatusSchema = oneOf(TRANSFER_STATUSES, "Transfer status");
export const transferTypeSchema = oneOf(TRANSFER_TYPES, "Transfer type");
export const cryptoNetworkSchema = oneOf(CRYPTO_NETWORKS, "Crypto network");
