import { describe, expect, it } from "vitest";
import { formatAsset } from "@/lib/shared/format";

describe("an amount to its asset's precision", () => {
  it("shows fiat to the cent, rounding a half up, however many places the service sent", () => {
    expect(formatAsset("24999000.0001702", "USD")).toBe("24,999,000.00");
    expect(formatAsset("1000", "EUR")).toBe("1,000.00");
    expect(formatAsset("0.005", "SGD")).toBe("0.01");
  });

  it("shows crypto to at most 8 decimals, without padding", () => {
    expect(formatAsset("350", "BTC")).toBe("350");
    expect(formatAsset("1.30000001", "ETH")).toBe("1.30000001");
    expect(formatAsset("0.123456789", "BTC")).toBe("0.12345679");
    expect(formatAsset("2000000", "USDP")).toBe("2,000,000");
  });

  it("keeps every digit of a long amount: it never passes through a number", () => {
    expect(formatAsset("12345678901234567.12345678", "BTC")).toBe("12,345,678,901,234,567.12345678");
  });

  it("shows a dash for no amount", () => {
    expect(formatAsset(undefined, "USD")).toBe("—");
  });
});
