import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  addDecimal,
  compareDecimal,
  decimalProblem,
  divideDecimalDown,
  divideDecimalHalfUp,
  fromUnits,
  isMultipleOf,
  midpointDecimal,
  multiplyDecimal,
  nonNegativeDecimal,
  percentOfDown,
  positiveDecimal,
  roundDecimalHalfUp,
  scaleOf,
  subtractDecimal,
  toUnits,
  trimZeros,
} from "@/lib/spec";
import { expectAccepted, expectRefused } from "./helpers";

const amount = z.object({ amount: positiveDecimal("Amount") });

describe("positive decimal strings", () => {
  it.each(["1", "0.5", ".5", "000.1", "1250.50", "99999999999999999999", "0.000000000000000001"])(
    "accepts %s",
    (value) => expectAccepted(amount, { amount: value }),
  );

  it.each([
    ["-1", /no sign/],
    ["+1", /no sign/],
    ["1e5", /exponent/],
    ["1E-2", /exponent/],
    [" 1", /spaces/],
    ["1 ", /spaces/],
    ["0x10", /decimal number/],
    ["1,000", /separators/],
    ["1.", /decimal number/],
    ["", /decimal number/],
    ["1.2.3", /decimal number/],
    ["NaN", /decimal number/],
    ["Infinity", /decimal number/],
    ["１", /decimal number/],
    ["0", /greater than zero/],
    ["0.000", /greater than zero/],
    ["123456789012345678901", /at most 20 digits before/],
    ["0.1234567890123456789", /at most 18 decimal places/],
  ])("refuses %j", (value, message) => expectRefused(amount, { amount: value }, "amount", message));

  it("refuses a JSON number, which would lose precision", () => {
    expectRefused(amount, { amount: 1.5 }, "amount", /string/);
  });

  it("says a missing amount is required", () => {
    expectRefused(amount, {}, "amount", /Amount is required/);
  });

  it("counts leading zeros out of the integer-digit bound", () => {
    expect(decimalProblem("0000000000000000000000001")).toBeNull();
  });
});

describe("decimal strings of 0 or more", () => {
  const balance = z.object({ target: nonNegativeDecimal("Target") });

  it.each(["0", "0.000", ".0", "1", "1250.50", "0.000000000000000001"])("accepts %s", (value) =>
    expectAccepted(balance, { target: value }),
  );

  it.each([
    ["-0", /no sign/],
    ["-1", /no sign/],
    ["", /decimal number/],
    ["1e5", /exponent/],
    ["123456789012345678901", /at most 20 digits before/],
    ["0.1234567890123456789", /at most 18 decimal places/],
  ])("refuses %j, as an amount would be", (value, message) =>
    expectRefused(balance, { target: value }, "target", message),
  );

  it("refuses a JSON number, and says a missing one is required", () => {
    expectRefused(balance, { target: 0 }, "target", /string/);
    expectRefused(balance, {}, "target", /Target is required/);
  });
});

describe("exact arithmetic on decimal strings", () => {
  it("converts to and from scaled units without loss", () => {
    expect(toUnits("12.5", 2)).toBe(1250n);
    expect(toUnits(".5", 8)).toBe(50_000_000n);
    expect(fromUnits(1250n, 2)).toBe("12.50");
    expect(fromUnits(5n, 8)).toBe("0.00000005");
    expect(fromUnits(-5n, 2)).toBe("-0.05");
    expect(fromUnits(7n, 0)).toBe("7");
    expect(toUnits("123456789012345678.123456789012345678", 18)).toBe(123456789012345678123456789012345678n);
  });

  it("refuses to drop precision silently", () => {
    expect(() => toUnits("0.123", 2)).toThrow(RangeError);
  });

  it("compares and checks multiples exactly", () => {
    expect(compareDecimal("0.1", "0.10")).toBe(0);
    expect(compareDecimal("0.30000000000000000001", "0.3")).toBe(1);
    expect(compareDecimal("2", "10")).toBe(-1);
    expect(isMultipleOf("100.25", "0.25")).toBe(true);
    expect(isMultipleOf("100.30", "0.25")).toBe(false);
    expect(scaleOf("1.2300")).toBe(4);
    expect(scaleOf("7")).toBe(0);
  });
});

describe("decimal helpers for the order ticket", () => {
  it("multiplies exactly", () => {
    expect(multiplyDecimal("0.1", "0.2")).toBe("0.02");
    expect(multiplyDecimal("65000.25", "0.00000001")).toBe("0.0006500025");
    expect(multiplyDecimal("123456789.123456789", "1000")).toBe("123456789123.456789");
  });
  it("divides rounding down, never up", () => {
    expect(divideDecimalDown("1000", "3", 8)).toBe("333.33333333");
    expect(divideDecimalDown("2", "3", 2)).toBe("0.66");
    expect(divideDecimalDown("1", "0", 2)).toBe("0");
  });
  it("takes a percentage rounded down", () => {
    expect(percentOfDown("0.12345679", 25, 8)).toBe("0.03086419");
    expect(percentOfDown("1000.01", 50, 2)).toBe("500.00");
    expect(percentOfDown("7", 100, 8)).toBe("7.00000000");
  });
  it("trims trailing zeros", () => {
    expect(trimZeros("12.500")).toBe("12.5");
    expect(trimZeros("3.000")).toBe("3");
    expect(trimZeros("300")).toBe("300");
  });
});

describe("decimal helpers for valuing balances", () => {
  it("adds exactly, where numbers would not", () => {
    expect(addDecimal("0.1", "0.2")).toBe("0.3");
    expect(addDecimal("24999000.0001702", "0.00000001")).toBe("24999000.00017021");
    expect(addDecimal("99999999999999999999.999999999999999999", "0.000000000000000001")).toBe("100000000000000000000");
    expect(addDecimal("5", "0")).toBe("5");
    expect(addDecimal("1.50", ".5")).toBe("2");
  });

  it("subtracts exactly, below zero too", () => {
    expect(subtractDecimal("65000.25", "65000")).toBe("0.25");
    expect(subtractDecimal("0.3", "0.1")).toBe("0.2");
    expect(subtractDecimal("1", "1.5")).toBe("-0.5");
    expect(subtractDecimal("2.50", "2.5")).toBe("0");
  });

  it("finds the midpoint of a bid and an ask exactly", () => {
    expect(midpointDecimal("65000", "65000.25")).toBe("65000.125");
    expect(midpointDecimal("0.0001", "0.0002")).toBe("0.00015");
    expect(midpointDecimal("3", "3")).toBe("3");
    expect(midpointDecimal("1", "2")).toBe("1.5");
  });

  it("rounds a half up, and pads to the places asked", () => {
    expect(roundDecimalHalfUp("2.345", 2)).toBe("2.35");
    expect(roundDecimalHalfUp("2.344999999", 2)).toBe("2.34");
    expect(roundDecimalHalfUp("24999000.0001702", 2)).toBe("24999000.00");
    expect(roundDecimalHalfUp("0.995", 2)).toBe("1.00");
    expect(roundDecimalHalfUp("7", 2)).toBe("7.00");
    expect(roundDecimalHalfUp("1.5", 0)).toBe("2");
  });

  it("divides rounding a half up", () => {
    expect(divideDecimalHalfUp("2", "3", 2)).toBe("0.67");
    expect(divideDecimalHalfUp("1", "3", 2)).toBe("0.33");
    expect(divideDecimalHalfUp("1", "8", 2)).toBe("0.13");
    expect(divideDecimalHalfUp("65000.125", "59800.125", 6)).toBe("1.086956");
    expect(divideDecimalHalfUp("1", "0", 2)).toBe("0");
  });
});
