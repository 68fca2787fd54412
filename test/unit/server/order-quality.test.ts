import { describe, expect, it } from "vitest";
import { qualityOf, type QualityOrder } from "@/lib/server/quality/order-quality";
import type { MarketTrade } from "@/lib/shared/order-quality";

/**
 * An order's execution quality from its record (lib/server/quality/order-quality.ts): the fills
 * the service reports ("" and "0" meaning none), the arrival the journal kept, and the window of
 * the market's VWAP: from the order's creation (or its arrival, when earlier) to its last change
 * once done, or to now while it may still fill.
 */

const order = (over: Partial<QualityOrder> = {}): QualityOrder => ({
  id: "o-1",
  side: "BUY",
  status: "FILLED",
  created_at: "2026-01-01T10:00:01.000Z",
  modified_at: "2026-01-01T10:00:03.000Z",
  amount_filled: "0.10000000",
  volume_weighted_average_price: "60100.00000000",
  ...over,
});
const arrival = { arrival_mid: "60000", arrival_at: "2026-01-01T10:00:00.500Z" };
const NOW = "2026-01-01T11:00:00.000Z";
const trades: MarketTrade[] = [
  { amount: "1", price: "59000", executed_at: "2026-01-01T10:00:00.400Z" },
  { amount: "0.1", price: "60100", executed_at: "2026-01-01T10:00:03.000Z" },
  { amount: "0.3", price: "60200", executed_at: "2026-01-01T10:00:03.001Z" },
];

describe("qualityOf", () => {
  it("weighs a done order's fills against its arrival mid, over its life from its arrival", () => {
    expect(qualityOf(order(), arrival, trades, NOW)).toEqual({
      order_id: "o-1",
      arrival_mid: "60000",
      arrival_at: "2026-01-01T10:00:00.500Z",
      filled: "0.1",
      fill_vwap: "60100",
      slippage_bps: "16.67",
      // From the arrival (earlier than its creation at the service) to its last change, both included.
      market_vwap: "60100",
      window_start: "2026-01-01T10:00:00.500Z",
      window_end: "2026-01-01T10:00:03.000Z",
    });
  });

  it("runs the window of an order that may still fill up to now", () => {
    const open = qualityOf(order({ status: "OPEN" }), arrival, trades, NOW);
    expect(open.window_end).toBe(NOW);
    // 0.1 at 60,100 and 0.3 at 60,200: 24,070 / 0.4 = 60,175.
    expect(open.market_vwap).toBe("60175");
  });

  it("starts at the order's creation when the dashboard did not send it, with no arrival nor slippage", () => {
    expect(qualityOf(order({ side: "SELL" }), undefined, trades, NOW)).toMatchObject({
      arrival_mid: null,
      arrival_at: null,
      fill_vwap: "60100",
      slippage_bps: null,
      window_start: "2026-01-01T10:00:01.000Z",
    });
  });

  it("reads the service's unset amounts ('' and '0') as no fill", () => {
    for (const unset of ["", "0", "0.00000000"]) {
      expect(
        qualityOf(
          order({ status: "CANCELLED", amount_filled: unset, volume_weighted_average_price: unset }),
          arrival,
          [],
          NOW,
        ),
      ).toMatchObject({ filled: "0", fill_vwap: null, slippage_bps: null, market_vwap: null });
    }
  });

  it("keeps a journaled order's arrival time with no mid (none was read), and no slippage then", () => {
    expect(qualityOf(order(), { arrival_mid: null, arrival_at: arrival.arrival_at }, trades, NOW)).toMatchObject({
      arrival_mid: null,
      arrival_at: arrival.arrival_at,
      slippage_bps: null,
    });
  });
});
