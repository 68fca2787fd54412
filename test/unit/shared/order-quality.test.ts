import { describe, expect, it } from "vitest";
import { marketVwapOf, slippageBps, slippageWords, vwapOf, type MarketTrade } from "@/lib/shared/order-quality";

/**
 * Execution quality on known fills (issue 29): a fill's VWAP, its slippage against the arrival
 * mid (positive: a cost, the desk paid more on a buy or received less on a sell; negative: a
 * saving), and the market's VWAP over an order's life, bounds included. Exact decimals.
 */

describe("vwapOf", () => {
  it("is the notional over the volume of several fills, exactly", () => {
    // (0.1 × 60,000 + 0.3 × 60,100 + 0.6 × 60,050) / 1 = 60,060.
    expect(
      vwapOf([
        { amount: "0.1", price: "60000" },
        { amount: "0.3", price: "60100" },
        { amount: "0.6", price: "60050" },
      ]),
    ).toBe("60060");
    // 0.1 + 0.2 as decimals, never as floats: (0.1 × 1.1 + 0.2 × 1.2) / 0.3 = 0.35 / 0.3 = 1.1666…
    expect(
      vwapOf([
        { amount: "0.1", price: "1.1" },
        { amount: "0.2", price: "1.2" },
      ]),
    ).toBe("1.16666667");
  });

  it("is one fill's own price, without trailing zeros", () => {
    expect(vwapOf([{ amount: "0.00000001", price: "60010.25" }])).toBe("60010.25");
  });

  it("is null without volume", () => {
    expect(vwapOf([])).toBeNull();
    expect(vwapOf([{ amount: "0", price: "60000" }])).toBeNull();
  });
});

describe("slippageBps", () => {
  it("is positive for a buy filled above the arrival mid: the desk paid more", () => {
    // (60,010 − 60,005) / 60,005 × 10,000 = 0.8332…
    expect(slippageBps("BUY", "60005", "60010")).toBe("0.83");
    expect(slippageBps("BUY", "60000", "60100")).toBe("16.67");
    expect(slippageBps("BUY", "100", "101")).toBe("100.00");
  });

  it("is positive for a sell filled below the arrival mid: the desk received less", () => {
    expect(slippageBps("SELL", "60000", "59940")).toBe("10.00");
    expect(slippageBps("SELL", "3000", "2999.95")).toBe("0.17");
  });

  it("is negative, a saving, for a buy filled below the mid or a sell above it", () => {
    expect(slippageBps("BUY", "60000", "59950")).toBe("-8.33");
    expect(slippageBps("SELL", "60000", "60030")).toBe("-5.00");
  });

  it("is zero at the mid, and rounds half up at 2 decimals", () => {
    expect(slippageBps("BUY", "60000", "60000")).toBe("0.00");
    // 0.000005 above a mid of 1 is 0.05 bps exactly; 0.0000005 is 0.005, rounded up to 0.01.
    expect(slippageBps("BUY", "1", "1.000005")).toBe("0.05");
    expect(slippageBps("BUY", "1", "1.0000005")).toBe("0.01");
    // A saving too small to show is no saving: "0.00", never "-0.00".
    expect(slippageBps("BUY", "1", "0.9999999")).toBe("0.00");
  });

  it("is null without an arrival mid, a fill, or a mid above zero", () => {
    expect(slippageBps("BUY", null, "60000")).toBeNull();
    expect(slippageBps("SELL", "60000", null)).toBeNull();
    expect(slippageBps("BUY", "0", "60000")).toBeNull();
  });
});

describe("marketVwapOf", () => {
  const trades: MarketTrade[] = [
    { amount: "1", price: "100", executed_at: "2026-01-01T10:00:00.000Z" },
    { amount: "1", price: "110", executed_at: "2026-01-01T10:00:05.000Z" },
    { amount: "2", price: "120", executed_at: "2026-01-01T10:00:10.000Z" },
    { amount: "5", price: "200", executed_at: "2026-01-01T10:00:10.001Z" },
  ];

  it("counts the trades on both bounds of the window", () => {
    // 100, 110 and 2 × 120: 450 / 4 = 112.5.
    expect(marketVwapOf(trades, "2026-01-01T10:00:00.000Z", "2026-01-01T10:00:10.000Z")).toBe("112.5");
    expect(marketVwapOf(trades, "2026-01-01T10:00:05.000Z", "2026-01-01T10:00:05.000Z")).toBe("110");
  });

  it("leaves out what falls a millisecond outside it", () => {
    expect(marketVwapOf(trades, "2026-01-01T10:00:00.001Z", "2026-01-01T10:00:09.999Z")).toBe("110");
  });

  it("is null when no trade fell in the window, or none is known", () => {
    expect(marketVwapOf(trades, "2026-01-01T11:00:00.000Z", "2026-01-01T12:00:00.000Z")).toBeNull();
    expect(marketVwapOf([], "2026-01-01T10:00:00.000Z", "2026-01-01T10:00:10.000Z")).toBeNull();
  });
});

describe("slippageWords", () => {
  it("says cost or saved, with no sign to read, and — when unknown", () => {
    expect(slippageWords("3.2")).toBe("cost 3.20 bps");
    expect(slippageWords("-1.10")).toBe("saved 1.10 bps");
    expect(slippageWords("1234.5")).toBe("cost 1,234.50 bps");
    expect(slippageWords("0.00")).toBe("none (0.00 bps)");
    expect(slippageWords(null)).toBe("—");
  });
});
