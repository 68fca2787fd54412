import { describe, expect, it } from "vitest";
import { outcomeOf } from "@/lib/shared/activity-outcome";
import { ACTIVITY_CSV_HEADER, activityCsvRow, askedOf, describeAsked } from "@/lib/shared/activity-rows";
import type { JournalEntry } from "@/lib/shared/journal-entry";

const entry = (over: Partial<JournalEntry>): JournalEntry => ({
  id: "e1",
  kind: "order",
  ref_id: "ref-1",
  user_email: "trader@example.com",
  user_role: "trader",
  profile_id: "p-trading",
  to_profile_id: null,
  request: {},
  status: "succeeded",
  created_at: "2026-11-23T17:04:28.000Z",
  completed_at: "2026-11-23T17:04:28.020Z",
  http_status: 200,
  latency_ms: 20,
  record: null,
  problem: null,
  result_id: null,
  duplicate_of: null,
  ...over,
});
const nickname = (id: string) => ({ "p-trading": "Trading", "p-settle": "Settlement" })[id] ?? id;
const named = (row: string[]) => Object.fromEntries(ACTIVITY_CSV_HEADER.map((h, i) => [h, row[i]]));

const limitBuy = { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "100.00", base_amount: "0.010", ref_id: "r" };

describe("an entry in an auditor's words", () => {
  it("an order: side, amount in its asset, price and market", () => {
    const e = entry({ request: limitBuy, record: { id: "o-1", status: "OPEN" }, result_id: "o-1" });
    expect(describeAsked(askedOf(e))).toBe("BUY 0.01 ETH at 100.00 · ETH/USD");
    expect(outcomeOf(e)).toBe("Order placed (open at the time)");
    const market = entry({ request: { market: "BTCUSD", side: "BUY", type: "MARKET", quote_amount: "1000.00" } });
    expect(describeAsked(askedOf(market))).toBe("BUY 1,000.00 USD at market · BTC/USD");
  });

  it("a transfer: amount and asset, with both profiles", () => {
    const e = entry({
      kind: "transfer",
      profile_id: "p-trading",
      to_profile_id: "p-settle",
      request: { from_profile_id: "p-trading", to_profile_id: "p-settle", asset: "USD", amount: "250.50" },
      record: { status: "PENDING" },
    });
    expect(askedOf(e)).toMatchObject({
      amount: "250.50",
      asset: "USD",
      from_profile_id: "p-trading",
      to_profile_id: "p-settle",
    });
    expect(describeAsked(askedOf(e))).toBe("250.50 USD");
    expect(outcomeOf(e)).toBe("Transfer sent (pending at the time)");
    expect(named(activityCsvRow(e, nickname))).toMatchObject({
      profile: "Trading",
      to_profile: "Settlement",
      amount: "250.50",
    });
  });

  it("a cancel: the order it was for and, when the dashboard placed it, what that order was", () => {
    const e = entry({
      kind: "cancel",
      request: { order_id: "o-1", profile_id: "p-trading", order: limitBuy },
      record: {},
      result_id: "o-1",
    });
    expect(askedOf(e)).toMatchObject({ order_id: "o-1", side: "BUY", market: "ETHUSD", amount: "0.010", asset: "ETH" });
    expect(outcomeOf(e)).toBe("Cancel acknowledged");
    const outside = entry({ kind: "cancel", request: { order_id: "o-2", profile_id: "p-trading" } });
    expect(askedOf(outside)).toMatchObject({ order_id: "o-2", side: "", market: "" });
    expect(describeAsked(askedOf(outside))).toBe("");
  });

  it("the outcome of a refused or unanswered request", () => {
    const problem = { type: "about:blank", title: "Insufficient Funds", status: 422, detail: "USD available is 5" };
    expect(outcomeOf(entry({ status: "failed", problem }))).toBe("Insufficient Funds");
    expect(outcomeOf(entry({ status: "pending" }))).toBe("Waiting for the service");
    expect(outcomeOf(entry({ status: "declined", duplicate_of: "ref-0" }))).toBe("Not sent: declined as a repeat");
  });

  it("writes a CSV row per entry with amounts exactly as sent and every column filled in its place", () => {
    const row = activityCsvRow(entry({ request: limitBuy, result_id: "o-1", record: { status: "OPEN" } }), nickname);
    expect(row).toHaveLength(ACTIVITY_CSV_HEADER.length);
    expect(named(row)).toMatchObject({
      created_at: "2026-11-23T17:04:28.000Z",
      action: "order",
      user_email: "trader@example.com",
      profile: "Trading",
      order_id: "o-1",
      side: "BUY",
      market: "ETHUSD",
      amount: "0.010",
      price: "100.00",
      status: "succeeded",
      outcome: "Order placed (open at the time)",
      http_status: "200",
      latency_ms: "20",
    });
  });
});
