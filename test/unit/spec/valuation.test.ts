import { describe, expect, it } from "vitest";
import { midsOf, orderNotional, orderValueInUsd, referencePriceOf, usdPriceOf, valueInUsd } from "@/lib/spec/valuation";

const mids = { BTCUSD: "60000", BTCEUR: "50000", BTCSGD: "80000", ETHUSD: "3000.5" };

describe("valuation in USD", () => {
  it("takes the mid of a two-sided book, else the last trade, else the side there is", () => {
    const ticker = (bid: string, ask: string, last = "0") => ({
      best_bid: { price: bid },
      best_ask: { price: ask },
      last_execution: { price: last },
    });
    expect(referencePriceOf(ticker("99.5", "100.5", "98"))).toBe("100.00000000");
    expect(referencePriceOf(ticker("65000", "65000.25"))).toBe("65000.12500000");
    expect(referencePriceOf(ticker("0", "100.5", "99"))).toBe("99");
    expect(referencePriceOf(ticker("99.5", "0", "101"))).toBe("101");
    expect(referencePriceOf(ticker("0", "100.5"))).toBe("100.5");
    expect(referencePriceOf(ticker("0", "0"))).toBeUndefined();
    expect(referencePriceOf(undefined)).toBeUndefined();
    expect(
      midsOf([
        ["BTCUSD", ticker("1", "3")],
        ["ETHUSD", ticker("0", "0")],
        ["BTCEUR", undefined],
      ]),
    ).toEqual({
      BTCUSD: "2.00000000",
    });
  });

  it("values crypto at its USD mid and EUR and SGD by the BTC cross", () => {
    expect(usdPriceOf("USD", {})).toBe("1");
    expect(usdPriceOf("ETH", mids)).toBe("3000.5");
    expect(usdPriceOf("EUR", mids)).toBe("1.20000000");
    expect(usdPriceOf("SGD", mids)).toBe("0.75000000");
    expect(usdPriceOf("LINK", mids)).toBeUndefined();
    expect(valueInUsd("20000", "EUR", mids)).toBe("24000.00000000");
    // Divided once: a rate rounded to 8 places first would be 0.08 USD short on 8,000,000 EUR.
    expect(valueInUsd("8000000", "EUR", { BTCUSD: "65000.125", BTCEUR: "59800.125" })).toBe("8695650.71979364");
    expect(valueInUsd("0.1", "ETH", mids)).toBe("300.05000000");
  });

  it("values an order at its quantity times the larger of its own price and the mid", () => {
    const limit = { market: "BTCEUR", side: "BUY", type: "LIMIT", price: "50000", base_amount: "2" } as const;
    expect(orderNotional(limit, "40000")).toBe("100000");
    expect(orderNotional(limit, "55000")).toBe("110000");
    // A market with no price at all leaves the order's own price.
    expect(orderNotional(limit, undefined)).toBe("100000");
    expect(
      orderNotional({ market: "BTCUSD", side: "SELL", type: "MARKET", base_amount: "1" }, undefined),
    ).toBeUndefined();
    expect(orderValueInUsd(limit, mids)).toBe("120000.00000000");
    expect(orderNotional({ market: "BTCUSD", side: "BUY", type: "MARKET", quote_amount: "1000.00" }, undefined)).toBe(
      "1000.00",
    );
    expect(orderNotional({ market: "BTCUSD", side: "SELL", type: "MARKET", base_amount: "0.5" }, "60000")).toBe(
      "30000",
    );
    const stop = {
      market: "BTCUSD",
      side: "SELL",
      type: "STOP_MARKET",
      stop_price: "59000",
      base_amount: "1",
    } as const;
    expect(orderValueInUsd(stop, mids)).toBe("60000.00000000");
    expect(orderValueInUsd({ ...stop, stop_price: "61000" }, mids)).toBe("61000.00000000");
    // A sell limited far below the market fills at the market: 5 BTC at the mid, not at 0.25.
    const stopLimit = { ...stop, type: "STOP_LIMIT", stop_price: "90000", price: "0.25", base_amount: "5" } as const;
    expect(orderValueInUsd(stopLimit, mids)).toBe("300000.00000000");
    expect(orderValueInUsd({ ...stopLimit, type: "LIMIT", stop_price: undefined }, mids)).toBe("300000.00000000");
    expect(orderValueInUsd({ market: "BTCUSD", side: "SELL", type: "MARKET", base_amount: "1" }, {})).toBeUndefined();
  });
});
