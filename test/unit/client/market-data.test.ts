import { describe, expect, it } from "vitest";
import { pricePoints } from "@/lib/shared/executions";
import { barShare, ladderOf } from "@/lib/shared/order-book";

const level = (price: string, amount: string) => ({ price, amount });

describe("the depth ladder", () => {
  const book = {
    bids: [level("100", "0.1"), level("99.5", "0.2"), level("99", "1.00000001")],
    asks: [level("100.25", "0.3"), level("101", "0.7")],
  };

  it("adds each side's amounts from the best price outwards, exactly", () => {
    const ladder = ladderOf(book);
    expect(ladder.bids.map((l) => l.total)).toEqual(["0.1", "0.3", "1.30000001"]);
    expect(ladder.asks.map((l) => l.total)).toEqual(["0.3", "1"]);
    expect(ladder.bids[1]).toEqual({ price: "99.5", amount: "0.2", total: "0.3" });
    expect(ladder.spread).toBe("0.25");
  });

  it("shows only the top levels of each side", () => {
    const ladder = ladderOf(book, 2);
    expect(ladder.bids.map((l) => l.price)).toEqual(["100", "99.5"]);
    expect(ladder.asks).toHaveLength(2);
  });

  it("marks a gap where prices jump far, and draws the bars against the levels near the price", () => {
    // Bids every 16 USD near 65,000 (a maker's steps of 64 ticks), then resting bids at 30,000 and 1,000.
    const far = {
      bids: [
        level("64984", "0.5"),
        level("64968", "0.6"),
        level("64952", "0.7"),
        level("30000", "6"),
        level("1000", "300"),
      ],
      asks: [level("65016", "0.5"), level("65032", "0.6")],
    };
    const ladder = ladderOf(far, 10, "0.25");
    expect(ladder.bids.map((l) => l.gapBefore)).toEqual([undefined, undefined, undefined, "34952", "29000"]);
    expect(ladder.asks.every((l) => !l.gapBefore)).toBe(true);
    // Near the price: 1.8 BTC of bids, 1.1 of asks; the 306.8 BTC total past the gaps draws full width.
    expect(ladder.barScale).toBe("1.8");
    expect(barShare(ladder.bids[2]!.total, ladder.barScale)).toBe(1);
    expect(barShare(ladder.bids[0]!.total, ladder.barScale)).toBeCloseTo(0.5 / 1.8);
    expect(barShare(ladder.bids[4]!.total, ladder.barScale)).toBe(1);
  });

  it("counts a gap as a row, so the ladder keeps its height", () => {
    const ladder = ladderOf({ bids: [level("100", "1"), level("50", "1"), level("49.99", "1")], asks: [] }, 2);
    expect(ladder.bids.map((l) => l.price)).toEqual(["100"]);
  });

  it("sees no gap in evenly spaced levels, however many ticks apart", () => {
    const even = { bids: [level("100", "1"), level("90", "1"), level("80", "1")], asks: [level("110", "1")] };
    expect(ladderOf(even, 10, "0.01").bids.some((l) => l.gapBefore)).toBe(false);
  });

  it("has no spread while a side is empty", () => {
    expect(ladderOf({ bids: book.bids, asks: [] })).toMatchObject({ asks: [], spread: undefined });
  });
});

describe("the price chart's points", () => {
  const trade = (match_number: string, executed_at: string, price: string) => ({
    match_number,
    executed_at,
    price,
    amount: "1",
  });

  it("runs oldest first, one point per second holding that second's last trade", () => {
    const newestFirst = [
      trade("4", "2026-01-01T00:00:02.100Z", "103"),
      trade("3", "2026-01-01T00:00:01.900Z", "102.5"),
      trade("2", "2026-01-01T00:00:01.900Z", "102"),
      trade("1", "2026-01-01T00:00:00.000Z", "100"),
    ];
    const t0 = Date.UTC(2026, 0, 1) / 1000;
    expect(pricePoints(newestFirst)).toEqual([
      { time: t0, price: "100" },
      { time: t0 + 1, price: "102.5" },
      { time: t0 + 2, price: "103" },
    ]);
  });

  it("has no points before the first trade", () => {
    expect(pricePoints([])).toEqual([]);
  });
});
