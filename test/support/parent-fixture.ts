import type { ParentOrder, ParentOrderChild } from "@/lib/shared/parent-order";

/**
 * A TWAP parent order as GET /api/parent-orders answers it, for the tests of the pages' pure
 * helpers: 0.2 BTC over 60 s in 6 slices capped at 61,000, started at 12:00:00, its first two
 * slices sent (the first filled, the second resting), the rest scheduled.
 */
export const PARENT_ID = "0192f0c8-0000-7000-8000-000000000001";
const START = Date.parse("2026-11-27T12:00:00.000Z");
const at = (ms: number) => new Date(START + ms).toISOString();

export function childFixture(n: number, over: Partial<ParentOrderChild> = {}): ParentOrderChild {
  return {
    n,
    ref_id: `twap-1-${n}`,
    order_id: null,
    scheduled_at: at((n - 1) * 10_000),
    sent_at: null,
    base_amount: null,
    price: null,
    status: "SCHEDULED",
    amount_filled: "0",
    average_price: "",
    ...over,
  };
}

export function parentFixture(over: Partial<ParentOrder> = {}): ParentOrder {
  return {
    id: PARENT_ID,
    ref_id: "twap-1",
    profile_id: "trading",
    market: "BTCUSD",
    side: "BUY",
    base_amount: "0.2",
    limit_price: "61000",
    strategy: "TWAP",
    duration_seconds: 60,
    slices: 6,
    status: "WORKING",
    requested_by: "trader@example.com",
    created_at: at(0),
    approval_id: null,
    value_usd: "12200",
    filled_base: "0.03333333",
    average_price: "60010",
    started_at: at(0),
    ends_at: at(60_000),
    children: [
      childFixture(1, {
        order_id: "order-1",
        sent_at: at(200),
        base_amount: "0.03333333",
        price: "60010",
        status: "FILLED",
        amount_filled: "0.03333333",
        average_price: "60010",
      }),
      childFixture(2, {
        order_id: "order-2",
        sent_at: at(10_300),
        base_amount: "0.03333333",
        price: "60010",
        status: "OPEN",
      }),
      ...[3, 4, 5, 6].map((n) => childFixture(n)),
    ],
    quality: {
      order_id: PARENT_ID,
      arrival_mid: "60005",
      arrival_at: at(0),
      filled: "0.03333333",
      fill_vwap: "60010",
      slippage_bps: "0.83",
      market_vwap: "60010",
      window_start: at(0),
      window_end: at(20_000),
    },
    ...over,
  };
}
