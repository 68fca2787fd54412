import { describe, expect, it } from "vitest";
import { deskTotals, usdValueOf } from "@/lib/shared/valuation";
import { marketsToValue, usdPriceOf, type Mids } from "@/lib/spec/valuation";

/** Mids of a quiet afternoon: BTC at 65,000.125 USD and 59,800.125 EUR. */
const mids: Mids = {
  BTCUSD: "65000.125",
  BTCEUR: "59800.125",
  BTCSGD: "87750.5",
  ETHUSD: "3200.025",
};

describe("an amount in USD", () => {
  it("is USD itself, to the cent", () => {
    expect(usdValueOf("USD", "24999000.0001702", mids)).toBe("24999000.00");
    expect(usdValueOf("USD", "0.005", mids)).toBe("0.01");
  });

  it("values crypto at its USD market's mid, rounded to the cent a half up", () => {
    expect(usdValueOf("BTC", "1.5", mids)).toBe("97500.19"); // 97,500.1875
    expect(usdValueOf("ETH", "0.5", mids)).toBe("1600.01"); // 1,600.0125
    expect(usdPriceOf("BTC", mids)).toBe("65000.125");
  });

  it("values EUR and SGD at the cross of BTC's mids, divided once", () => {
    // 1000 * 65000.125 / 59800.125 = 1086.95633997...
    expect(usdValueOf("EUR", "1000", mids)).toBe("1086.96");
    // 2500.5 * 65000.125 / 87750.5 = 1852.21523...
    expect(usdValueOf("SGD", "2500.5", mids)).toBe("1852.22");
    expect(usdPriceOf("EUR", mids)).toBe("1.08695633");
    expect(marketsToValue("EUR")).toEqual(["BTCUSD", "BTCEUR"]);
  });

  it("has no value without a price", () => {
    expect(usdValueOf("LINK", "10", mids)).toBeUndefined();
    expect(usdValueOf("EUR", "10", { ...mids, BTCEUR: undefined })).toBeUndefined();
    expect(usdValueOf("NOPE", "10", mids)).toBeUndefined();
    expect(marketsToValue("USD")).toEqual([]);
    expect(marketsToValue("LINK")).toEqual(["LINKUSD"]);
  });
});

describe("the desk's totals", () => {
  const treasury = [
    { asset: "BTC", available: "1.25", trading: "0.25" },
    { asset: "USD", available: "24999000.0001702", trading: "1000" },
    { asset: "LINK", available: "10", trading: "0" },
  ];
  const trading = [
    { asset: "USD", available: "0.1", trading: "0.2" },
    { asset: "EUR", available: "1000", trading: "0" },
  ];

  it("adds each asset across profiles exactly, fiat first, and values it", () => {
    const totals = deskTotals([treasury, trading], mids);
    expect(totals.assets).toEqual([
      {
        asset: "USD",
        available: "24999000.1001702",
        trading: "1000.2",
        total: "25000000.3001702",
        usdPrice: "1",
        usdValue: "25000000.30",
      },
      {
        asset: "EUR",
        available: "1000",
        trading: "0",
        total: "1000",
        usdPrice: "1.08695633",
        usdValue: "1086.96",
      },
      {
        asset: "BTC",
        available: "1.25",
        trading: "0.25",
        total: "1.5",
        usdPrice: "65000.125",
        usdValue: "97500.19",
      },
      { asset: "LINK", available: "10", trading: "0", total: "10", usdPrice: undefined, usdValue: undefined },
    ]);
  });

  it("adds the shown cents into the USD total, naming what has no price", () => {
    const totals = deskTotals([treasury, trading], mids);
    // 25,000,000.30 + 1,086.96 + 97,500.19
    expect(totals.usdTotal).toBe("25098587.45");
    expect(totals.unpriced).toEqual(["LINK"]);
  });

  it("is zero for no balances", () => {
    expect(deskTotals([], mids)).toEqual({ assets: [], usdTotal: "0.00", unpriced: [] });
  });
});
