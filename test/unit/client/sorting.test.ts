import { describe, expect, it } from "vitest";
import { compareDecimalOrBlank } from "@/lib/shared/sorting";

describe("compareDecimalOrBlank", () => {
  it("orders decimals exactly, past the precision of a JS number", () => {
    expect(compareDecimalOrBlank("0.30000000000000001", "0.3")).toBe(1);
    expect(compareDecimalOrBlank("12345678901234567890.1", "12345678901234567890.01")).toBe(1);
    expect(compareDecimalOrBlank("9", "10")).toBe(-1);
    expect(compareDecimalOrBlank("1.50", "1.5")).toBe(0);
    expect(compareDecimalOrBlank(".5", "0.5")).toBe(0);
  });

  it("sorts blanks and malformed values before every number without throwing", () => {
    expect(compareDecimalOrBlank("", "0")).toBe(-1);
    expect(compareDecimalOrBlank("0", "")).toBe(1);
    expect(compareDecimalOrBlank("", undefined)).toBe(0);
    expect(compareDecimalOrBlank("abc", "1")).toBe(-1);
  });

  it("sorts a list of amounts as a person expects", () => {
    const amounts = ["10", "9.99", "", "100.001", "0.5", "100"];
    expect([...amounts].sort(compareDecimalOrBlank)).toEqual(["", "0.5", "9.99", "10", "100", "100.001"]);
  });
});
