import { describe, expect, it } from "vitest";
import type { ChildRecord, ParentRecord } from "@/lib/server/db/parent-orders";
import { viewOf } from "@/lib/server/parent-orders/view";

/**
 * A parent's view reads its fills off the children it lists: the worker writes a child's fill a
 * step before the parent's columns, and a read between the two showed the parent behind its
 * children (0 filled over a FILLED child in CI).
 */

const START = "2026-11-27T10:00:00.000Z";

const parent = (fields: Partial<ParentRecord> = {}): ParentRecord => ({
  id: "p-1",
  ref_id: "twap-1",
  profile_id: "TRADING",
  market: "BTCUSD",
  side: "BUY",
  base_amount: "0.1",
  limit_price: "61000",
  duration_seconds: 60,
  slices: 3,
  status: "WORKING",
  requested_by: "trader@example.com",
  requested_name: "Trader",
  requested_role: "trader",
  request_json: "{}",
  value_usd: "6100",
  approval_id: null,
  created_at: START,
  updated_at: START,
  started_at: START,
  ends_at: "2026-11-27T10:01:00.000Z",
  paused_at: null,
  arrival_mid: "60005",
  filled_base: "0",
  filled_notional: "0",
  cancelled_by: null,
  ...fields,
});

const child = (n: number, fields: Partial<ChildRecord> = {}): ChildRecord => ({
  parent_id: "p-1",
  n,
  ref_id: `twap-1-${n}`,
  scheduled_at: START,
  sent_at: null,
  base_amount: null,
  price: null,
  status: "SCHEDULED",
  order_id: null,
  amount_filled: "0",
  average_price: "",
  problem_json: null,
  ...fields,
});

describe("a parent order's view", () => {
  it("shows what its children filled, even while its own columns are a step behind", () => {
    const children = [
      child(1, { status: "FILLED", base_amount: "0.03333333", amount_filled: "0.03333333", average_price: "60010" }),
      child(2, { status: "FILLED", base_amount: "0.03333333", amount_filled: "0.02", average_price: "60020" }),
      child(3),
    ];
    const view = viewOf(parent({ filled_base: "0", filled_notional: "0" }), children, [], START);
    expect(view.filled_base).toBe("0.05333333");
    // (0.03333333 × 60010 + 0.02 × 60020) / 0.05333333
    expect(view.average_price).toBe("60013.75000023");
    expect(view.quality.filled).toBe("0.05333333");
    expect(view.quality.fill_vwap).toBe(view.average_price);
    expect(view.children.map((c) => c.amount_filled)).toEqual(["0.03333333", "0.02", "0"]);
  });

  it("shows nothing filled, and no average, before any child fills", () => {
    const view = viewOf(parent({ filled_base: "0.05", filled_notional: "3000" }), [child(1), child(2)], [], START);
    expect(view.filled_base).toBe("0");
    expect(view.average_price).toBe("");
    expect(view.quality.fill_vwap).toBeNull();
  });
});
