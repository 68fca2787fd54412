import { beforeEach, describe, expect, it } from "vitest";
import { ProblemError } from "@/lib/spec";
import { toOrderRecord, toTransferRecord } from "@/lib/sandbox/engine/records";
import { T0, harness, limit } from "./harness";

let h: ReturnType<typeof harness>;
beforeEach(() => {
  h = harness();
  h.fund("alice", "USD", "1000000");
  h.fund("alice", "ETH", "100");
  h.fund("bob", "USD", "1000000");
  h.fund("bob", "ETH", "100");
  h.fund("carol", "ETH", "100");
  h.fund("carol", "USD", "1000000");
});

function problemOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProblemError) return e.problem;
    throw e;
  }
  throw new Error("expected a problem");
}

describe("create", () => {
  it("answers SUBMITTED with nothing filled, before matching", () => {
    h.place("bob", limit("SELL", "2000.00", "1"));
    const order = h.ex.submitOrder("c1", "alice", {
      market: "ETHUSD",
      type: "LIMIT",
      side: "BUY",
      price: "2000.00",
      base_amount: "1",
    });
    expect({ status: order.status, filled: order.filledBase }).toEqual({ status: "SUBMITTED", filled: 0n });
    h.ex.processSubmitted();
    expect(h.record(order.id).status).toBe("FILLED");
  });
});

describe("LIMIT", () => {
  it("GTC rests, holds the quote, and fills at the resting price", () => {
    const bid = h.place("alice", limit("BUY", "2000.00", "2"));
    expect(h.record(bid.id)).toMatchObject({ status: "OPEN", time_in_force: "GTC", amount_filled: "0.00000000" });
    expect(h.balance("alice", "USD")).toEqual({ available: "996000", trading: "4000" });

    const ask = h.place("bob", limit("SELL", "1999.95", "2"));
    expect(h.record(ask.id)).toMatchObject({
      status: "FILLED",
      amount_filled: "2.00000000",
      volume_weighted_average_price: "2000.00000000",
    });
    expect(h.record(bid.id)).toMatchObject({ status: "FILLED", amount_filled: "2.00000000" });
    expect(h.balance("alice", "USD")).toEqual({ available: "996000", trading: "0" });
    expect(h.balance("alice", "ETH")).toEqual({ available: "102", trading: "0" });
    expect(h.balance("bob", "USD")).toEqual({ available: "1004000", trading: "0" });
    expect(h.balance("bob", "ETH")).toEqual({ available: "98", trading: "0" });
  });

  it("matches by price, then by time", () => {
    const first = h.place("bob", limit("SELL", "2000.00", "1"));
    const better = h.place("bob", limit("SELL", "1999.00", "1"));
    const second = h.place("bob", limit("SELL", "2000.00", "1"));
    const taker = h.place("alice", limit("BUY", "2000.00", "2"));
    expect(h.record(better.id).status).toBe("FILLED");
    expect(h.record(first.id).status).toBe("FILLED");
    expect(h.record(second.id).status).toBe("OPEN");
    expect(h.record(taker.id)).toMatchObject({ status: "FILLED", volume_weighted_average_price: "1999.50000000" });
  });

  it("releases the surplus hold when it fills below its limit", () => {
    h.place("bob", limit("SELL", "1000.00", "1"));
    h.place("alice", limit("BUY", "1100.00", "1"));
    expect(h.balance("alice", "USD")).toEqual({ available: "999000", trading: "0" });
  });

  it("a partial fill stays OPEN with the rest", () => {
    h.place("bob", limit("SELL", "2000.00", "0.4"));
    const bid = h.place("alice", limit("BUY", "2000.00", "1"));
    expect(h.record(bid.id)).toMatchObject({ status: "OPEN", amount_filled: "0.40000000" });
    expect(h.ex.orderBook("ETHUSD").bids).toEqual([{ price: 2000n * 10n ** 18n, amount: 6n * 10n ** 17n }]);
  });

  it("IOC fills what it can and cancels the rest", () => {
    h.place("bob", limit("SELL", "2000.00", "0.4"));
    const bid = h.place("alice", limit("BUY", "2000.00", "1", { time_in_force: "IOC" }));
    expect(h.record(bid.id)).toMatchObject({ status: "CANCELLED", amount_filled: "0.40000000" });
    expect(h.balance("alice", "USD")).toEqual({ available: "999200", trading: "0" });
    expect(h.ex.orderBook("ETHUSD").bids).toEqual([]);
  });

  it("FOK never fills partly", () => {
    const ask = h.place("bob", limit("SELL", "2000.00", "0.4"));
    const kill = h.place("alice", limit("BUY", "2000.00", "1", { time_in_force: "FOK" }));
    expect(h.record(kill.id)).toMatchObject({ status: "CANCELLED", amount_filled: "0.00000000" });
    expect(h.record(ask.id).status).toBe("OPEN");
    const fill = h.place("alice", limit("BUY", "2000.00", "0.4", { time_in_force: "FOK" }));
    expect(h.record(fill.id)).toMatchObject({ status: "FILLED", amount_filled: "0.40000000" });
  });

  it("GTT is cancelled at its expiration date, releasing its hold", () => {
    const bid = h.place(
      "alice",
      limit("BUY", "2000.00", "1", { time_in_force: "GTT", expiration_date: String(T0 + 60_000) }),
    );
    h.advance(59_999);
    expect(h.record(bid.id).status).toBe("OPEN");
    h.advance(1);
    expect(h.record(bid.id)).toMatchObject({
      status: "CANCELLED",
      expiration_date: new Date(T0 + 60_000).toISOString(),
    });
    expect(h.balance("alice", "USD")).toEqual({ available: "1000000", trading: "0" });
  });
});

describe("POST_ONLY_LIMIT", () => {
  it.each(["GTC", "IOC", "FOK", "GTT"])("with %s is REJECTED when it would take liquidity", (tif) => {
    h.place("bob", limit("SELL", "2000.00", "1"));
    const extra = {
      type: "POST_ONLY_LIMIT",
      time_in_force: tif,
      ...(tif === "GTT" ? { expiration_date: String(T0 + 60_000) } : {}),
    };
    const o = h.place("alice", limit("BUY", "2000.00", "1", extra));
    expect(h.record(o.id)).toMatchObject({ status: "REJECTED", amount_filled: "0.00000000" });
    expect(h.balance("alice", "USD").trading).toBe("0");
  });
  it.each(["GTC", "GTT"])("with %s rests when it would not cross", (tif) => {
    h.place("bob", limit("SELL", "2000.00", "1"));
    const extra = {
      type: "POST_ONLY_LIMIT",
      time_in_force: tif,
      ...(tif === "GTT" ? { expiration_date: String(T0 + 60_000) } : {}),
    };
    expect(h.record(h.place("alice", limit("BUY", "1999.95", "1", extra)).id).status).toBe("OPEN");
  });
  it.each(["IOC", "FOK"])("with %s is cancelled when there is nothing to rest against", (tif) => {
    const o = h.place("alice", limit("BUY", "1999.95", "1", { type: "POST_ONLY_LIMIT", time_in_force: tif }));
    expect(h.record(o.id).status).toBe("CANCELLED");
  });
});

describe("MARKET", () => {
  it("a buy spends its quote amount across levels; the dust is released", () => {
    h.place("bob", limit("SELL", "2000.00", "0.5"));
    h.place("bob", limit("SELL", "2100.00", "10"));
    const o = h.place("alice", { market: "ETHUSD", type: "MARKET", side: "BUY", quote_amount: "2050.00" });
    // 0.5 at 2000 = 1000; then 1050 / 2100 = 0.5 at 2100.
    expect(h.record(o.id)).toMatchObject({
      status: "FILLED",
      amount_filled: "1.00000000",
      time_in_force: "IOC",
      quote_amount: "2050.00",
      price: "",
    });
    expect(h.balance("alice", "USD")).toEqual({ available: "997950", trading: "0" });
  });
  it("a sell sells its base amount and never rests", () => {
    h.place("bob", limit("BUY", "1900.00", "0.3"));
    const o = h.place("alice", { market: "ETHUSD", type: "MARKET", side: "SELL", base_amount: "1" });
    expect(h.record(o.id)).toMatchObject({ status: "CANCELLED", amount_filled: "0.30000000" });
    expect(h.balance("alice", "ETH")).toEqual({ available: "99.7", trading: "0" });
    expect(h.ex.orderBook("ETHUSD").asks).toEqual([]);
  });
  it("is refused with an empty opposite book", () => {
    const p = problemOf(() =>
      h.place("alice", { market: "ETHUSD", type: "MARKET", side: "BUY", quote_amount: "10.00" }),
    );
    expect(p).toMatchObject({
      status: 403,
      title: "Market Conditions Prevented Execution",
      detail: "market conditions have invalidated this order",
    });
  });
});

describe("stop orders (sell stop-loss)", () => {
  const trade = (price: string) => {
    h.place("bob", limit("SELL", price, "0.01"));
    h.place("dave", limit("BUY", price, "0.01"));
  };
  beforeEach(() => h.fund("dave", "USD", "1000000"));

  it.each(["GTC", "GTT"])(
    "STOP_MARKET with %s waits, then sells at market once the last trade falls to its stop",
    (tif) => {
      trade("2000.00");
      const extra = tif === "GTT" ? { time_in_force: "GTT", expiration_date: String(T0 + 600_000) } : {};
      const stop = h.place("alice", {
        market: "ETHUSD",
        type: "STOP_MARKET",
        side: "SELL",
        stop_price: "1900.00",
        base_amount: "1",
        ...extra,
      });
      expect(h.record(stop.id)).toMatchObject({ status: "OPEN", is_triggered: false });
      expect(h.balance("alice", "ETH")).toEqual({ available: "99", trading: "1" });
      h.place("dave", limit("BUY", "1850.00", "5"));
      trade("1950.00");
      expect(h.record(stop.id).is_triggered).toBe(false);
      trade("1900.00");
      expect(h.record(stop.id)).toMatchObject({
        status: "FILLED",
        is_triggered: true,
        volume_weighted_average_price: "1850.00000000",
      });
    },
  );

  it.each(["GTC", "GTT"])("STOP_LIMIT with %s becomes a limit order at its price when triggered", (tif) => {
    trade("2000.00");
    const extra = tif === "GTT" ? { time_in_force: "GTT", expiration_date: String(T0 + 600_000) } : {};
    const stop = h.place("alice", {
      market: "ETHUSD",
      type: "STOP_LIMIT",
      side: "SELL",
      stop_price: "1900.00",
      price: "1895.00",
      base_amount: "1",
      ...extra,
    });
    trade("1899.00");
    expect(h.record(stop.id)).toMatchObject({ status: "OPEN", is_triggered: true });
    expect(h.ex.orderBook("ETHUSD").asks[0]?.price).toBe(1895n * 10n ** 18n);
  });

  it("triggers at once when the last trade is already at or below the stop", () => {
    trade("1800.00");
    h.place("dave", limit("BUY", "1790.00", "1"));
    const stop = h.place("alice", {
      market: "ETHUSD",
      type: "STOP_MARKET",
      side: "SELL",
      stop_price: "1900.00",
      base_amount: "1",
    });
    expect(h.record(stop.id)).toMatchObject({ status: "FILLED", is_triggered: true });
  });

  it("can be cancelled before it triggers, releasing the base", () => {
    const stop = h.place("alice", {
      market: "ETHUSD",
      type: "STOP_MARKET",
      side: "SELL",
      stop_price: "1900.00",
      base_amount: "1",
    });
    h.ex.cancelOrder("c1", "alice", stop.id);
    expect(h.record(stop.id).status).toBe("CANCELLED");
    expect(h.balance("alice", "ETH")).toEqual({ available: "100", trading: "0" });
  });
});

describe("self-match prevention", () => {
  it("without an id, cancels the same customer's resting order and goes on", () => {
    const own = h.place("carol", limit("SELL", "2000.00", "1"));
    const other = h.place("bob", limit("SELL", "2000.00", "1"));
    const bid = h.place("alice", limit("BUY", "2000.00", "1"));
    expect(h.record(own.id).status).toBe("CANCELLED");
    expect(h.record(other.id).status).toBe("FILLED");
    expect(h.record(bid.id).status).toBe("FILLED");
    expect(h.balance("carol", "ETH")).toEqual({ available: "100", trading: "0" });
  });
  it("with an id, the two do not match and the incoming order stops", () => {
    const own = h.place("carol", limit("SELL", "2000.00", "1"));
    const bid = h.place("alice", limit("BUY", "2000.00", "1", { self_match_prevention_id: "desk-1" }));
    expect(h.record(own.id).status).toBe("OPEN");
    expect(h.record(bid.id)).toMatchObject({ status: "CANCELLED", amount_filled: "0.00000000" });
  });
});

describe("funding", () => {
  it("refuses an order it cannot fund, saying how much is missing", () => {
    const p = problemOf(() => h.place("alice", limit("BUY", "2000.00", "501")));
    expect(p).toMatchObject({
      status: 403,
      title: "Insufficient Funds",
      meta: { profile_id: "alice", asset: "USD", available: "1000000", needed: "1002000" },
    });
    expect(h.balance("alice", "USD")).toEqual({ available: "1000000", trading: "0" });
  });
  it("settles into the recipient profile: base for a buy, quote for a sell", () => {
    h.place("bob", limit("SELL", "2000.00", "1", { recipient_profile_id: "bob" }));
    h.place("alice", limit("BUY", "2000.00", "1", { recipient_profile_id: "carol" }));
    expect(h.balance("carol", "ETH").available).toBe("101");
    expect(h.balance("alice", "ETH").available).toBe("100");
  });
  it("refuses an unknown profile or recipient with 404", () => {
    expect(problemOf(() => h.place("alice", limit("BUY", "1.00", "1", { recipient_profile_id: "bob" })))).toMatchObject(
      { status: 404 },
    );
    expect(
      problemOf(() =>
        h.ex.submitOrder("c1", "nobody", {
          market: "ETHUSD",
          type: "LIMIT",
          side: "BUY",
          price: "1",
          base_amount: "1",
        }),
      ),
    ).toMatchObject({
      status: 404,
      detail: "profile not found: nobody",
    });
  });
});

describe("ref_id", () => {
  it("a reused ref_id gets 409 with the original order", () => {
    const first = h.place("alice", limit("BUY", "1000.00", "1", { ref_id: "r-1" }));
    const p = problemOf(() => h.place("alice", limit("BUY", "1000.00", "2", { ref_id: "r-1" })));
    expect(p).toMatchObject({
      status: 409,
      title: "Already Exists",
      detail: "order already exists with ref_id 'r-1'",
      meta: { existing: toOrderRecord(first) },
    });
    expect(h.ex.orders.size).toBe(1);
  });
  it("is the customer's own: another customer may use the same one", () => {
    const mine = h.place("alice", limit("BUY", "1000.00", "1", { ref_id: "r-3" }));
    const theirs = h.place("bob", limit("BUY", "1000.00", "1", { ref_id: "r-3" }));
    expect(theirs.id).not.toBe(mine.id);
    expect(problemOf(() => h.place("carol", limit("BUY", "1000.00", "1", { ref_id: "r-3" })))).toMatchObject({
      status: 409,
      meta: { existing: toOrderRecord(mine) },
    });
  });
  it("may be reused once the order has been closed for more than 24 hours", () => {
    const first = h.place("alice", limit("BUY", "1000.00", "1", { ref_id: "r-2" }));
    h.ex.cancelOrder("c1", "alice", first.id);
    h.clock.now += 24 * 3600_000;
    expect(problemOf(() => h.place("alice", limit("BUY", "1000.00", "1", { ref_id: "r-2" })))).toMatchObject({
      status: 409,
    });
    h.clock.now += 1;
    expect(h.place("alice", limit("BUY", "1000.00", "1", { ref_id: "r-2" })).id).not.toBe(first.id);
  });
});

describe("cancel", () => {
  it("is acknowledged, and the order is CANCELLED the settle time later, its hold released only then", () => {
    const bid = h.place("alice", limit("BUY", "1000.00", "2"));
    const asked = h.ex.requestCancel("c1", "alice", bid.id);
    expect(asked.id).toBe(bid.id);
    expect(h.record(bid.id).status).toBe("OPEN");
    expect(h.balance("alice", "USD")).toEqual({ available: "998000", trading: "2000" });
    expect(h.ex.orderBook("ETHUSD").bids).toHaveLength(1);
    h.advance(499);
    expect(h.record(bid.id).status).toBe("OPEN");
    h.advance(1);
    expect(h.record(bid.id)).toMatchObject({ status: "CANCELLED", amount_filled: "0.00000000" });
    expect(h.balance("alice", "USD")).toEqual({ available: "1000000", trading: "0" });
    expect(h.ex.orderBook("ETHUSD").bids).toEqual([]);
  });

  it("a fill in between wins: a filled order stays FILLED and nothing is released twice", () => {
    const bid = h.place("alice", limit("BUY", "1000.00", "1"));
    h.ex.requestCancel("c1", "alice", bid.id);
    h.place("bob", limit("SELL", "1000.00", "1"));
    expect(h.record(bid.id).status).toBe("FILLED");
    h.advance(500);
    expect(h.record(bid.id).status).toBe("FILLED");
    expect(h.balance("alice", "USD")).toEqual({ available: "999000", trading: "0" });
    expect(h.balance("alice", "ETH")).toEqual({ available: "101", trading: "0" });
  });

  it("a partial fill in between: the rest is cancelled and only its hold is released", () => {
    const bid = h.place("alice", limit("BUY", "1000.00", "1"));
    h.ex.requestCancel("c1", "alice", bid.id);
    h.place("bob", limit("SELL", "1000.00", "0.25"));
    h.advance(500);
    expect(h.record(bid.id)).toMatchObject({ status: "CANCELLED", amount_filled: "0.25000000" });
    expect(h.balance("alice", "USD")).toEqual({ available: "999750", trading: "0" });
  });

  it("asked again while pending, is acknowledged again and keeps the first time", () => {
    const bid = h.place("alice", limit("BUY", "1000.00", "1"));
    h.ex.requestCancel("c1", "alice", bid.id);
    h.advance(300);
    h.ex.requestCancel("c1", "alice", bid.id);
    h.advance(200);
    expect(h.record(bid.id).status).toBe("CANCELLED");
  });

  it("cancels a stop before it triggers, or an order not yet matched, once the time comes", () => {
    const stop = h.place("alice", {
      market: "ETHUSD",
      type: "STOP_MARKET",
      side: "SELL",
      stop_price: "1900.00",
      base_amount: "1",
    });
    const queued = h.ex.submitOrder("c1", "alice", {
      market: "ETHUSD",
      type: "LIMIT",
      side: "BUY",
      price: "1000.00",
      base_amount: "1",
    });
    h.ex.requestCancel("c1", "alice", stop.id);
    h.ex.requestCancel("c1", "alice", queued.id);
    h.ex.processSubmitted();
    expect([h.record(stop.id).status, h.record(queued.id).status]).toEqual(["OPEN", "OPEN"]);
    h.advance(500);
    expect([h.record(stop.id).status, h.record(queued.id).status]).toEqual(["CANCELLED", "CANCELLED"]);
    expect(h.balance("alice", "ETH")).toEqual({ available: "100", trading: "0" });
    expect(h.balance("alice", "USD")).toEqual({ available: "1000000", trading: "0" });
  });

  it("with no settle time, cancels at once", () => {
    const now = harness({ cancelSettleMillis: 0 });
    now.fund("alice", "USD", "1000");
    const bid = now.place("alice", limit("BUY", "100.00", "1"));
    now.ex.requestCancel("c1", "alice", bid.id);
    expect(now.record(bid.id).status).toBe("CANCELLED");
    expect(now.balance("alice", "USD")).toEqual({ available: "1000", trading: "0" });
  });

  it("refuses a final order and an unknown one", () => {
    h.place("bob", limit("SELL", "2000.00", "1"));
    const filled = h.place("alice", limit("BUY", "2000.00", "1"));
    for (const cancel of [h.ex.cancelOrder, h.ex.requestCancel].map((f) => f.bind(h.ex))) {
      expect(problemOf(() => cancel("c1", "alice", filled.id))).toMatchObject({
        status: 403,
        detail: "order is not in cancellable state",
      });
      expect(problemOf(() => cancel("c1", "alice", "nope"))).toMatchObject({ status: 404 });
      expect(problemOf(() => cancel("c2", "alice", filled.id))).toMatchObject({ status: 404 });
    }
  });
});

describe("internal transfers", () => {
  it("records a DEBIT and a CREDIT sharing a group, PENDING until settled", () => {
    const debit = h.transfer({
      from_profile_id: "alice",
      to_profile_id: "carol",
      asset: "USD",
      amount: "250.50",
      ref_id: "t-1",
      metadata: { a: "1" },
      recipient_metadata: { b: "2" },
    });
    const legs = [...h.ex.transfers.values()].filter((t) => t.groupId === debit.groupId);
    expect(legs.map((t) => [t.profileId, t.direction, t.type, t.status, t.metadata])).toEqual([
      ["alice", "DEBIT", "INTERNAL_TRANSFER_DEBIT", "PENDING", { a: "1" }],
      ["carol", "CREDIT", "INTERNAL_TRANSFER_CREDIT", "PENDING", { b: "2" }],
    ]);
    expect(h.balance("alice", "USD").available).toBe("999749.5");
    expect(h.balance("carol", "USD").available).toBe("1000250.5");
    h.advance(999);
    expect(legs.every((t) => t.status === "PENDING")).toBe(true);
    h.advance(1);
    expect(legs.every((t) => t.status === "COMPLETED")).toBe(true);
  });
  it("refuses insufficient funds (403), an unknown profile (404) and a reused ref_id (409)", () => {
    expect(
      problemOf(() => h.transfer({ from_profile_id: "alice", to_profile_id: "carol", asset: "BTC", amount: "1" })),
    ).toMatchObject({
      status: 403,
      meta: { asset: "BTC", available: "0", needed: "1" },
    });
    expect(
      problemOf(() => h.transfer({ from_profile_id: "alice", to_profile_id: "bob", asset: "USD", amount: "1" })),
    ).toMatchObject({ status: 404 });
    const first = h.transfer({
      from_profile_id: "alice",
      to_profile_id: "carol",
      asset: "USD",
      amount: "1",
      ref_id: "dup",
    });
    // As the reference's Create Internal Transfer words it, with the existing DEBIT leg in meta.existing.
    expect(
      problemOf(() =>
        h.transfer({ from_profile_id: "alice", to_profile_id: "carol", asset: "USD", amount: "2", ref_id: "dup" }),
      ),
    ).toEqual({
      type: expect.stringMatching(/already-exists$/),
      title: "Already exists",
      status: 409,
      detail: "Transfer with ref_id already exists",
      meta: { existing: toTransferRecord(first) },
    });
    expect(h.balance("alice", "USD").available).toBe("999999");
  });
});

describe("the service's refusals: size caps and the price band", () => {
  beforeEach(() => {
    h.fund("bob", "USD", "5000000");
    h.fund("bob", "BTC", "100");
    h.fund("alice", "BTC", "100");
    h.fund("alice", "USD", "5000000");
  });

  it("refuses a LIMIT order past 1,500,000 on BTCUSD and ETHUSD and 1,000,000 elsewhere, at the boundary", () => {
    const btc = (price: string, amount: string) => ({
      market: "BTCUSD",
      type: "LIMIT",
      side: "BUY",
      price,
      base_amount: amount,
    });
    expect(h.place("alice", btc("10000.00", "150")).status).not.toBe("REJECTED"); // exactly 1,500,000
    expect(problemOf(() => h.place("alice", btc("10000.25", "150")))).toMatchObject({
      status: 403,
      type: expect.stringMatching(/notional-value-too-large$/),
      detail:
        "notional value too large for BTCUSD LIMIT order: order had notional value 1500037.5, but maximum allowed notional value is 1500000",
      meta: { market: "BTCUSD", order_type: "LIMIT", order_notional_value: "1500037.5", max_notional_value: "1500000" },
    });
    h.fund("alice", "EUR", "2000000");
    const eur = { market: "BTCEUR", type: "LIMIT", side: "BUY", price: "10000.01", base_amount: "100" };
    expect(problemOf(() => h.place("alice", eur))).toMatchObject({ meta: { max_notional_value: "1000000" } });
  });

  it("refuses a MARKET order past 500,000", () => {
    h.place("bob", { market: "BTCUSD", type: "LIMIT", side: "SELL", price: "60000.00", base_amount: "20" });
    const buy = (quote: string) => ({ market: "BTCUSD", type: "MARKET", side: "BUY", quote_amount: quote });
    expect(problemOf(() => h.place("alice", buy("500000.01")))).toMatchObject({
      status: 403,
      meta: { max_notional_value: "500000", order_type: "MARKET" },
    });
    expect(h.place("alice", buy("500000.00")).status).not.toBe("REJECTED");
  });

  it("refuses a taker more than 15% from the mid, and lets a resting order or one within the band through", () => {
    h.place("bob", limit("SELL", "2000.00", "1"));
    h.place("bob", limit("SELL", "2400.00", "5"));
    h.place("carol", limit("BUY", "1600.00", "1"));
    // mid 1800: the band is 1530 to 2070.
    expect(problemOf(() => h.place("alice", limit("BUY", "2400.00", "3")))).toMatchObject({
      status: 403,
      type: expect.stringMatching(/price-outside-band$/),
      meta: { market: "ETHUSD", price: "2400", mid: "1800", band_percent: "15" },
    });
    expect(h.place("alice", limit("BUY", "2050.00", "1")).status).not.toBe("REJECTED");
    // Far from the mid but resting, not taking: allowed.
    expect(h.place("alice", limit("BUY", "100.00", "1")).status).toBe("OPEN");
  });

  // Issue 16 item 8: the band looks at the order's own limit price, not at the book level it reaches.
  it("refuses a BUY LIMIT 20% above the mid even when the best ask fills it all", () => {
    h.place("bob", limit("SELL", "2010.00", "1"));
    h.place("carol", limit("BUY", "1990.00", "1"));
    // mid 2000, band 1700 to 2300; the order reaches only 2010, but its own price is 2400.
    expect(problemOf(() => h.place("alice", limit("BUY", "2400.00", "0.5")))).toEqual({
      type: expect.stringMatching(/price-outside-band$/),
      title: "Price Outside Band",
      status: 403,
      detail:
        "taker orders are rejected if price deviates 15% from midpoint: price 2400 is 20% from the ETHUSD midpoint 2000",
      meta: {
        market: "ETHUSD",
        price: "2400",
        mid: "2000",
        band_percent: "15",
        deviation_percent: "20",
        min_price: "1700",
        max_price: "2300",
      },
    });
    expect(h.balance("alice", "USD").trading).toBe("0");
    // At the band's edge it is accepted, and fills at the ask.
    expect(h.record(h.place("alice", limit("BUY", "2300.00", "0.5")).id)).toMatchObject({
      status: "FILLED",
      volume_weighted_average_price: "2010.00000000",
    });
  });

  it("refuses a SELL LIMIT far below the mid that the best bid would fill, in any time in force", () => {
    h.place("bob", limit("SELL", "2010.00", "1"));
    h.place("bob", limit("BUY", "1990.00", "1"));
    for (const tif of ["GTC", "IOC", "FOK"]) {
      expect(
        problemOf(() => h.place("alice", limit("SELL", "1500.00", "0.1", { time_in_force: tif }))),
        tif,
      ).toMatchObject({ status: 403, meta: { price: "1500", mid: "2000", min_price: "1700" } });
    }
    expect(h.record(h.place("alice", limit("SELL", "1700.00", "0.1")).id).status).toBe("FILLED");
  });

  it("takes the opposite best as the mid when one side is empty", () => {
    h.place("bob", limit("SELL", "2000.00", "1"));
    expect(problemOf(() => h.place("alice", limit("BUY", "2301.00", "0.1")))).toMatchObject({
      meta: { mid: "2000", max_price: "2300" },
    });
  });

  it("does not band a MARKET order (the reference sets no price on it), only caps it", () => {
    h.place("bob", limit("SELL", "2000.00", "0.1"));
    h.place("bob", limit("SELL", "2600.00", "5"));
    h.place("carol", limit("BUY", "1990.00", "1"));
    // It reaches 2600, 30% above the mid of 1995: the service executes it "at best available price".
    const o = h.place("alice", { market: "ETHUSD", type: "MARKET", side: "BUY", quote_amount: "1500.00" });
    expect(h.record(o.id)).toMatchObject({ status: "FILLED", amount_filled: "0.60000000" });
  });

  it("does not band a stop limit until it is a taker, nor a post-only order", () => {
    h.place("bob", limit("SELL", "2010.00", "1"));
    h.place("carol", limit("BUY", "1990.00", "1"));
    const stop = h.place("alice", {
      market: "ETHUSD",
      type: "STOP_LIMIT",
      side: "SELL",
      stop_price: "1000.00",
      price: "900.00",
      base_amount: "1",
    });
    expect(h.record(stop.id).status).toBe("OPEN");
    const post = h.place("alice", limit("BUY", "2500.00", "0.1", { type: "POST_ONLY_LIMIT" }));
    expect(h.record(post.id).status).toBe("REJECTED");
  });
});

describe("records, per endpoint as the reference shows them", () => {
  it('unused amounts read "" from Create and Get Order, "0" in List Orders', () => {
    h.place("bob", limit("SELL", "2000.00", "1"));
    const lim = h.place("alice", limit("BUY", "1000.00", "1"));
    const buy = h.place("alice", { market: "ETHUSD", type: "MARKET", side: "BUY", quote_amount: "500.00" });
    const sell = h.place("bob", { market: "ETHUSD", type: "MARKET", side: "SELL", base_amount: "0.1" });
    const amounts = (o: { price: string; base_amount: string; quote_amount: string }) => [
      o.price,
      o.base_amount,
      o.quote_amount,
    ];
    expect(amounts(toOrderRecord(lim))).toEqual(["1000.00", "1", ""]);
    expect(amounts(toOrderRecord(lim, "0"))).toEqual(["1000.00", "1", "0"]);
    expect(amounts(toOrderRecord(buy, "0"))).toEqual(["0", "0", "500.00"]);
    expect(amounts(toOrderRecord(buy))).toEqual(["", "", "500.00"]);
    expect(amounts(toOrderRecord(sell, "0"))).toEqual(["0", "0.1", "0"]);
  });
});
