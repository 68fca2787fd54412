import { describe, expect, it } from "vitest";
import { pricePoints } from "@/lib/shared/executions";
import { ladderOf } from "@/lib/shared/order-book";

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
