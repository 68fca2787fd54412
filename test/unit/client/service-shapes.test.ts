import { describe, expect, it } from "vitest";
import { describeOutcome } from "@/components/orders/order-outcome";
import { byCreatedAt, orderCompare } from "@/lib/shared/list-routes";
import { compareIds, latestTrade, pricePoints } from "@/lib/shared/executions";
import { marketsOffered } from "@/lib/shared/markets-offered";
import { ladderOf } from "@/lib/shared/order-book";
import { orderAmount, orderCsvRows } from "@/lib/shared/order-rows";
import type { Execution, Ticker } from "@/lib/client/queries";
import { levelPrice } from "@/lib/shared/ticker";
import { groupTransfers } from "@/lib/shared/transfer-rows";
import { amountIfSet } from "@/lib/spec/decimal";
import { MARKETS } from "@/lib/spec/enums";
import { isMarket, marketAssets, marketLabel } from "@/lib/spec/markets";
import type { Order, Transfer } from "@/lib/spec";
import { midsOf, referencePriceOf } from "@/lib/spec/valuation";
import listOrders from "../../fixtures/service/list-orders.json";
import lastOrdersPage from "../../fixtures/service/list-orders-last-page.json";
import listMarkets from "../../fixtures/service/list-markets.json";
import listTransfers from "../../fixtures/service/list-transfers.json";
import orderBookOneSide from "../../fixtures/service/order-book-one-side.json";
import recentExecutions from "../../fixtures/service/recent-executions.json";
import tickerEmptyBook from "../../fixtures/service/ticker-empty-book.json";
import tickerOneSide from "../../fixtures/service/ticker-one-side.json";

/**
 * The service's answers as published, quirks included, through the rows and the market panel's
 * reads: what a screen shows must not depend on our sandbox's kinder shapes.
 */

const [limitBuy, marketBuy] = listOrders.body.items as unknown as Order[];
const [marketSell, paxgOrder] = lastOrdersPage.body.items as unknown as Order[];

describe("orders as List Orders answers them", () => {
  it("a market buy shows its quote amount: its base_amount '0' is unset, not zero BTC", () => {
    expect(orderAmount(marketBuy!)).toEqual({ value: "500.00", asset: "USD" });
    expect(orderAmount(limitBuy!)).toEqual({ value: "2.35781498", asset: "ETH" });
    expect(orderAmount(marketSell!)).toEqual({ value: "0.01000000", asset: "BTC" });
    // The same market buy as Get Order answers it ("" for unused), and with the fields left out.
    expect(orderAmount({ ...marketBuy!, base_amount: "" })).toEqual({ value: "500.00", asset: "USD" });
    expect(orderAmount({ market: "BTCUSD", quote_amount: "500.00" })).toEqual({ value: "500.00", asset: "USD" });
  });

  it("says what became of an order in its own asset, a '0' stop price being no stop", () => {
    expect(describeOutcome(marketBuy!)).toBe("Bought 0.05142181 BTC for 500.00 USD at avg 9,723.50 USD");
    const resting = { ...limitBuy!, status: "OPEN", amount_filled: "0", stop_price: "0" } as Order;
    expect(describeOutcome(resting)).toBe("Resting: 0 of 2.35781498 ETH filled");
  });

  it("'', '0', '0.00000000', null and absent are all unset; anything above zero is the amount", () => {
    for (const unset of ["", "0", "0.00000000", ".0", null, undefined, "n/a"])
      expect(amountIfSet(unset)).toBeUndefined();
    expect(amountIfSet("190.23")).toBe("190.23");
    expect(amountIfSet("0.00000001")).toBe("0.00000001");
  });

  it("a market order's price '0' sorts with the blanks, and orders without created_at sort last", () => {
    const byPrice = [marketBuy!, limitBuy!].sort(orderCompare("price", "desc"));
    expect(byPrice.map((o) => o.ref_id)).toEqual(["desk-order-1", "desk-order-2"]);
    const byAmount = [marketBuy!, limitBuy!].sort(orderCompare("amount", "asc"));
    // Base amounts first, then a market buy's quote amount.
    expect(byAmount.map((o) => o.ref_id)).toEqual(["desk-order-1", "desk-order-2"]);
    const newest = [limitBuy!, marketSell!, paxgOrder!].sort(byCreatedAt());
    expect(newest.map((o) => o.ref_id)).toEqual(["desk-order-4", "desk-order-3", "desk-order-1"]);
  });

  it("a market the spec does not name is shown by its own name's assets, and not traded", () => {
    expect(isMarket(paxgOrder!.market)).toBe(false);
    expect(marketLabel(paxgOrder!.market)).toBe("PAXG/USD");
    expect(marketAssets("USDPGBP")).toEqual({ base_asset: "USDP", quote_asset: "GBP" });
    expect(marketLabel("SOMETHING")).toBe("SOMETHING");
    expect(marketLabel("BTCUSD")).toBe("BTC/USD");
    expect(orderAmount(paxgOrder!)).toEqual({ value: "1.50000000", asset: "PAXG" });
  });

  it("the CSV keeps every amount exactly as the service sent it", () => {
    const rows = orderCsvRows(listOrders.body.items as unknown as Order[], (id) => id, undefined);
    // base_amount, quote_amount, price
    expect(rows[1]!.slice(10, 13)).toEqual(["0", "500.00", "0"]);
    expect(rows[0]![1]).toBe(""); // no created_at in the published example: an empty cell, not "Invalid Date"
  });
});

describe("transfers as List Transfers answers them", () => {
  it("groups the two legs of an internal transfer, DEBIT first, and keeps a withdrawal alone", () => {
    const groups = groupTransfers(listTransfers.body.items as unknown as Transfer[]);
    expect(groups.map((g) => g.legs.map((l) => l.direction))).toEqual([["DEBIT", "CREDIT"], ["DEBIT"]]);
    expect(groups[0]).toMatchObject({ status: "PENDING", amount: "250.00", asset: "USD" });
  });
});

describe("a ticker and a book with the levels the service leaves out", () => {
  const empty = tickerEmptyBook.body as unknown as Ticker;
  const oneSide = tickerOneSide.body as unknown as Ticker;

  it("reads a null level as no price, never as a crash", () => {
    expect([levelPrice(empty.best_bid), levelPrice(empty.best_ask), levelPrice(empty.last_execution)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect([levelPrice(oneSide.best_bid), levelPrice(oneSide.best_ask)]).toEqual(["9245.25", undefined]);
    expect(levelPrice({ price: "0", amount: "0" })).toBeUndefined();
    expect(levelPrice(undefined)).toBeUndefined();
  });

  it("values a market from what its ticker has: the last trade with one side empty, nothing with none", () => {
    expect(referencePriceOf(empty)).toBeUndefined();
    expect(referencePriceOf(oneSide)).toBe("9273.75");
    expect(midsOf([["BTCUSD", empty]])).toEqual({});
  });

  it("draws a ladder with one side null: no spread, totals exact", () => {
    const ladder = ladderOf(orderBookOneSide.body as never);
    expect(ladder.asks).toEqual([]);
    expect(ladder.bids.map((l) => l.total)).toEqual(["3.74413", "3.9775531"]);
    expect(ladder.spread).toBeUndefined();
    expect(ladderOf({})).toEqual({ asks: [], bids: [], spread: undefined });
    expect(ladderOf({ bids: [{ price: "1", amount: "2" }, null as never], asks: undefined }).bids).toHaveLength(1);
  });
});

describe("trades with alphanumeric match numbers", () => {
  const trades = recentExecutions.body.items as Execution[];

  it("sort by time, then by id as a string: no NaN, no trade lost", () => {
    const points = pricePoints(trades);
    const t = (iso: string) => Math.floor(Date.parse(iso) / 1000);
    expect(points).toEqual([
      { time: t("2026-03-02T09:59:59.000Z"), price: "9268.25" },
      { time: t("2026-03-02T10:00:00.250Z"), price: "9270.00" },
      // Two trades in the same millisecond: 9b1d comes after 9b1c.
      { time: t("2026-03-02T10:00:01.500Z"), price: "9274.00" },
    ]);
    expect(latestTrade(trades)?.match_number).toBe("9b1d");
    expect(latestTrade([])).toBeUndefined();
  });

  it("compares ids as strings: a shorter one first, then character by character", () => {
    expect(["b2", "a10", "a9", "10", "9"].sort(compareIds)).toEqual(["9", "10", "a9", "b2", "a10"]);
    expect(compareIds("abc", "abc")).toBe(0);
  });
});

describe("the markets the dashboard offers", () => {
  it("are the spec's markets the service lists: no GOLDUSD at a service without it, no PAXGUSD at all", () => {
    const offered = marketsOffered(listMarkets.body.markets);
    expect(offered).toEqual(["ETHUSD", "BTCEUR", "BTCUSD"]);
    expect(offered).not.toContain("GOLDUSD");
  });

  it("are the spec's own while the service's list is unknown, or names none of them", () => {
    expect(marketsOffered(undefined)).toBe(MARKETS);
    expect(marketsOffered([])).toBe(MARKETS);
    expect(marketsOffered([{ market: "SOLEUR" }])).toBe(MARKETS);
  });
});
