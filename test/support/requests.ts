import { randomUUID } from "node:crypto";
import { profileId } from "@/lib/sandbox/seed";

/**
 * The demo customer's profiles and small requests of a test's own: plain values, no vitest, so
 * benches (test/bench) use them too. test/support/dashboard.ts re-exports them for the tests.
 */

export const TRADING = profileId("trading");
export const TREASURY = profileId("treasury");
export const SETTLEMENT = profileId("settlement");
export const RESERVE = profileId("operations-reserve");

export const newRef = (prefix = "it") => `${prefix}-${randomUUID()}`;

/**
 * Each test's own create: its ref_id in the metadata too, so that two tests' orders are not the
 * same request (the back end asks before sending a repeat of a create sent a minute ago).
 */
const ownRequest = (ref_id?: string) => (ref_id ? { ref_id, metadata: { test: ref_id.slice(0, 100) } } : {});

/** A LIMIT buy far below the market: it rests, never fills, and costs little. */
export const smallOrder = (ref_id?: string, extra: Record<string, unknown> = {}) => ({
  market: "ETHUSD",
  side: "BUY",
  type: "LIMIT",
  price: "100.00",
  base_amount: "0.01",
  ...ownRequest(ref_id),
  ...extra,
});

/** A MARKET buy spending a few dollars: it fills at once against the market maker's asks (untilQuoted). */
export const smallMarketBuy = (ref_id: string, market: string, quote_amount = "5.00") => ({
  market,
  side: "BUY",
  type: "MARKET",
  quote_amount,
  ...ownRequest(ref_id),
});

export const smallTransfer = (ref_id?: string, extra: Record<string, unknown> = {}) => ({
  from_profile_id: TREASURY,
  to_profile_id: SETTLEMENT,
  asset: "USD",
  amount: "1.25",
  ...ownRequest(ref_id),
  ...extra,
});
