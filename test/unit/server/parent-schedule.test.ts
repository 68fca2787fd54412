import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  childAmount,
  childPrice,
  scheduleEndsAt,
  sliceDueAt,
  targetBy,
  worseThanCap,
} from "@/lib/server/parent-orders/schedule";
import { parentOrderRequestSchema } from "@/lib/shared/parent-order";
import { addDecimal, compareDecimal, fromUnits, toUnits } from "@/lib/spec";

/** A TWAP's schedule and each child's terms, pure: spacing, targets, carry-over, and the cap. */

describe("the schedule", () => {
  it("spreads N slices evenly over the duration, the first at the start, ending one slice after the last", () => {
    const start = Date.parse("2026-11-27T10:00:00Z");
    expect([1, 2, 3, 4, 5, 6].map((n) => sliceDueAt(start, 60, 6, n) - start)).toEqual([
      0, 10_000, 20_000, 30_000, 40_000, 50_000,
    ]);
    expect(scheduleEndsAt(start, 60) - start).toBe(60_000);
    // 7 slices over 60 s: whole milliseconds, never late past the next.
    expect(sliceDueAt(start, 60, 7, 7) - start).toBe(51_428);
  });

  it("aims at n/N of the whole by slice n, rounded down to 0.00000001, and at the whole by the last", () => {
    expect(["1", "2", "3"].map((n) => targetBy("0.1", 3, Number(n)))).toEqual(["0.03333333", "0.06666666", "0.1"]);
  });
});

describe("a child's amount", () => {
  it("is the slice's share plus what earlier slices left unfilled", () => {
    expect(childAmount("0.09", 3, 1, "0")).toBe("0.03");
    expect(childAmount("0.09", 3, 2, "0.02")).toBe("0.04");
    expect(childAmount("0.09", 3, 3, "0.06")).toBe("0.03");
  });

  it("never asks for more than is left, and nothing when the target is met", () => {
    expect(childAmount("0.09", 3, 2, "0.09")).toBe("0");
    expect(childAmount("0.09", 3, 2, "0.08")).toBe("0");
    expect(childAmount("0.09", 3, 3, "0.08")).toBe("0.01");
  });

  it("fills exactly the whole when every child fills in full", () => {
    let filled = "0";
    for (let n = 1; n <= 7; n++) filled = addDecimal(filled, childAmount("1", 7, n, filled));
    expect(filled).toBe("1");
  });

  it("never lets what is filled pass the whole, however the fills go", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 2n, max: 10n ** 12n }),
        fc.integer({ min: 2, max: 50 }),
        // Each child fills a share of what it asked, in thousandths: none, some, or all of it.
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 50, maxLength: 50 }),
        (units, slices, shares) => {
          const base = fromUnits(units, 8);
          fc.pre(compareDecimal(targetBy(base, slices, 1), "0") > 0);
          let filled = "0";
          for (let n = 1; n <= slices; n++) {
            const asked = childAmount(base, slices, n, filled);
            expect(compareDecimal(addDecimal(filled, asked), base)).toBeLessThanOrEqual(0);
            const got = fromUnits((toUnits(asked, 8) * BigInt(shares[n - 1]!)) / 1000n, 8);
            filled = addDecimal(filled, got);
          }
          expect(compareDecimal(filled, base)).toBeLessThanOrEqual(0);
        },
      ),
    );
  });
});

describe("a child's price", () => {
  it("is the touch on its side, capped by the limit: a buy never above it, a sell never below it", () => {
    expect(childPrice("BUY", "61000", { bid: "60000", ask: "60010" })).toBe("60010");
    expect(childPrice("BUY", "61000", { bid: "60990", ask: "61500" })).toBe("61000");
    expect(childPrice("SELL", "59000", { bid: "60000", ask: "60010" })).toBe("60000");
    expect(childPrice("SELL", "59000", { bid: "58000", ask: "60010" })).toBe("59000");
    expect(childPrice("BUY", "61000", {})).toBe("61000");
    expect(worseThanCap("BUY", "61000.25", "61000")).toBe(true);
    expect(worseThanCap("SELL", "58999.75", "59000")).toBe(true);
    expect(worseThanCap("BUY", "61000", "61000")).toBe(false);
    expect(worseThanCap("SELL", "59000.25", "59000")).toBe(false);
  });
});

describe("the request", () => {
  const ok = {
    profile_id: "p-1",
    market: "BTCUSD",
    side: "BUY",
    base_amount: "2",
    strategy: "TWAP",
    duration_seconds: 1800,
    slices: 30,
    limit_price: "66000",
  };

  it("accepts the boundaries: 60 s to 86,400 s, 2 to 500 slices, 5 s apart", () => {
    for (const change of [
      { duration_seconds: 60, slices: 12 },
      { duration_seconds: 60, slices: 2 },
      { duration_seconds: 86_400, slices: 500 },
    ]) {
      expect(parentOrderRequestSchema.safeParse({ ...ok, ...change }).success, JSON.stringify(change)).toBe(true);
    }
  });

  it("names the field and the rule of each refusal", () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ duration_seconds: 59 }, "duration_seconds", /at least 60/],
      [{ duration_seconds: 60.5 }, "duration_seconds", /whole number/],
      [{ slices: 501, duration_seconds: 86_400 }, "slices", /at most 500/],
      [{ duration_seconds: 60, slices: 13 }, "slices", /at least 5 seconds apart: at most 12 over 60 seconds/],
      [{ limit_price: "66000.1" }, "limit_price", /Limit price must be a multiple of 0.25/],
      [{ strategy: "VWAP" }, "strategy", /TWAP/],
      [{ ref_id: "x".repeat(125) }, "ref_id", /at most 124 characters/],
      [{ side: "HOLD" }, "side", /Side/],
    ];
    for (const [change, field, rule] of cases) {
      const result = parentOrderRequestSchema.safeParse({ ...ok, ...change });
      expect(result.success, field).toBe(false);
      const issue = result.error!.issues.find((i) => i.path[0] === field);
      expect(issue?.message, field).toMatch(rule);
    }
  });
});
