import { describe, expect, it } from "vitest";
import {
  formatClock,
  formatCount,
  formatDay,
  formatMarket,
  formatMoney,
  formatTickPrice,
  formatUsd,
  groupAmountInput,
  parseAmountInput,
  parsePercentInput,
  zoneName,
} from "@/lib/shared/format";

describe("the one formatting module", () => {
  it("writes an amount with its asset's decimals, grouped, the same way everywhere", () => {
    expect(formatMoney("100000", "USD")).toBe("100,000.00 USD");
    expect(formatUsd("20000.00000000")).toBe("20,000.00 USD");
    // The funds error rounds as the field above it does: to the cent.
    expect(formatMoney("4719919.99825", "USD")).toBe("4,719,920.00 USD");
    expect(formatMoney("0.12345678", "BTC")).toBe("0.12345678 BTC");
    expect(formatMoney("25000000", "EUR")).toBe("25,000,000.00 EUR");
    expect(formatCount(12480)).toBe("12,480");
  });

  it("names a market base/quote", () => {
    expect(formatMarket("BTCUSD")).toBe("BTC/USD");
    expect(formatMarket("ETHEUR")).toBe("ETH/EUR");
  });

  it("writes a day and a clock time in the chosen zone", () => {
    expect(formatDay("2026-11-25T23:59:59Z")).toBe("2026-11-25");
    expect(formatClock("2026-11-25T17:04:28Z")).toBe("17:04:28");
    expect(zoneName("UTC")).toBe("UTC");
    expect(zoneName("local", "2026-11-25T00:00:00Z")).toMatch(/^GMT([+-]\d{1,2}(:\d\d)?)?$/);
    expect(formatDay("not a time")).toBe("—");
  });
});

describe("amounts as typed", () => {
  it.each([
    ["1,000,000", "1000000"],
    [" 1,000,000.50 ", "1000000.50"],
    ["10000", "10000"],
    ["2500.5", "2500.5"],
  ])("takes %j as %j", (typed, plain) => {
    expect(parseAmountInput(typed)).toBe(plain);
  });

  it.each(["1,00,000", "1,0000", ",100", "abc", "-5abc", "1e5", "12 000"])(
    "passes %j on as typed, for the schema to name",
    (typed) => {
      expect(parseAmountInput(typed)).toBe(typed.trim());
    },
  );

  it("groups what was typed once the field is left, keeping its decimals", () => {
    expect(groupAmountInput("10000000")).toBe("10,000,000");
    expect(groupAmountInput("1,000,000")).toBe("1,000,000");
    expect(groupAmountInput("2500.50")).toBe("2,500.50");
    expect(groupAmountInput("999")).toBe("999");
    expect(groupAmountInput("")).toBe("");
    expect(groupAmountInput("ten thousand")).toBe("ten thousand");
  });

  it("takes a percentage with or without its sign", () => {
    expect(parsePercentInput("12.5 %")).toBe("12.5");
    expect(parsePercentInput("5%")).toBe("5");
    expect(parsePercentInput("abc")).toBe("abc");
  });
});

describe("formatTickPrice", () => {
  it("rounds a mid finer than the market's tick to it, grouped as the ladder writes prices", () => {
    expect(formatTickPrice("65224.125", "BTCUSD")).toBe("65,224.13");
    expect(formatTickPrice("65224.1", "BTCUSD")).toBe("65,224.10");
    expect(formatTickPrice(undefined, "BTCUSD")).toBe("—");
  });
});
