import { describe, expect, it, vi } from "vitest";
import { ASSETS, MARKETS, MARKET_DETAILS, createOrderRequestSchema, type Market } from "@/lib/spec";
import { formatFixed, parseAmount } from "@/lib/sandbox/engine/amounts";
import { Exchange } from "@/lib/sandbox/engine/exchange";
import { MarketMaker } from "@/lib/sandbox/market-maker";
import {
  DEMO_CUSTOMER_ID,
  DEMO_PROFILES,
  FLOW_TRADER_PROFILE_ID,
  HOUSE_CUSTOMER_IDS,
  HOUSE_PROFILES,
  MARKET_MAKER_PROFILE_ID,
  SEED_PROFILES,
  profileId,
  seedExchange,
} from "@/lib/sandbox/seed";
import { T0 } from "./harness";

const LEVELS = 6;
const schema = createOrderRequestSchema({ now: () => T0 });
const TREASURY = profileId("treasury");
const TRADING = profileId("trading");

/** A seeded sandbox: each `tick` is what the runtime does once a second. */
function world(seed = "test", options: { validate?: boolean } = {}) {
  const clock = { now: T0 };
  let ids = 0;
  const ex = new Exchange({ now: () => clock.now, newId: () => `id-${++ids}`, houseCustomers: HOUSE_CUSTOMER_IDS });
  seedExchange(ex);
  const mm = new MarketMaker(ex, { seed, levels: LEVELS, ...options });
  const tick = () => {
    mm.step();
    ex.processSubmitted();
    clock.now += 1000;
    ex.advance();
  };
  const place = (profile: string, request: Record<string, unknown>) => {
    const order = ex.submitOrder(DEMO_CUSTOMER_ID, profile, schema.parse(request));
    ex.processSubmitted();
    return order;
  };
  return { ex, mm, clock, tick, place };
}

const snapshot = (ex: Exchange) =>
  MARKETS.map((m) => ({ m, book: ex.orderBook(m), last: ex.tradeStats(m).last?.price ?? null }));

const openOrdersOf = (ex: Exchange, profile: string) =>
  [...ex.orders.values()].filter((o) => o.profileId === profile && (o.status === "OPEN" || o.status === "SUBMITTED"));

function depositsOf(asset: string): bigint {
  return SEED_PROFILES.reduce((sum, p) => sum + parseAmount(p.deposits[asset] ?? "0"), 0n);
}

describe("seed", () => {
  it("derives stable UUID-shaped ids from names", () => {
    expect(TREASURY).toBe(profileId("treasury"));
    expect(TREASURY).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Pinned (Python's uuid.uuid5 agrees): the same on every machine and after every restart.
    expect(TREASURY).toBe("9fb6e316-0117-5fa2-856a-d5b0ed685972");
    const ids = SEED_PROFILES.map((p) => p.profile.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("gives the demo customer its treasury profiles and keeps the house customers apart", () => {
    expect(DEMO_PROFILES.map((p) => p.profile.nickname)).toEqual(
      expect.arrayContaining(["Treasury", "Trading", "Settlement", "Operations reserve"]),
    );
    expect(DEMO_PROFILES.every((p) => p.profile.customerId === DEMO_CUSTOMER_ID)).toBe(true);
    expect(HOUSE_CUSTOMER_IDS.size).toBe(2);
    expect(HOUSE_CUSTOMER_IDS.has(DEMO_CUSTOMER_ID)).toBe(false);
    expect(new Set(HOUSE_PROFILES.map((p) => p.profile.customerId))).toEqual(new Set(HOUSE_CUSTOMER_IDS));
    for (const asset of ["USD", "EUR", "SGD", "BTC", "ETH"]) expect(DEMO_PROFILES[0]!.deposits[asset]).toBeDefined();
    for (const { deposits } of HOUSE_PROFILES) expect(Object.keys(deposits).sort()).toEqual([...ASSETS].sort());
  });

  it("funds every profile through recorded deposits", () => {
    const { ex } = world();
    for (const asset of ASSETS) expect(ex.ledger.total(asset)).toBe(depositsOf(asset));
    const deposits = [...ex.transfers.values()];
    expect(deposits.length).toBe(SEED_PROFILES.reduce((n, p) => n + Object.keys(p.deposits).length, 0));
    expect(deposits.every((t) => t.status === "COMPLETED" && t.direction === "CREDIT")).toBe(true);
    expect(ex.ledger.balance(TREASURY, "USD")).toEqual({ available: parseAmount("25000000"), trading: 0n });
  });
});

describe("MarketMaker", () => {
  it("quotes both sides of every market around its reference, on tick, not crossed", () => {
    const { ex, mm, tick } = world();
    tick();
    // Looked at before the flow trader's orders of this step take a level away.
    mm.step();
    for (const market of MARKETS) {
      const { bids, asks } = ex.orderBook(market);
      const tickUnits = parseAmount(MARKET_DETAILS[market].tick_rate);
      const reference = parseAmount(mm.referencePrice(market));
      expect(bids.length, market).toBe(LEVELS);
      expect(asks.length, market).toBe(LEVELS);
      const bestBid = bids[0]!.price;
      const bestAsk = asks[0]!.price;
      expect(bestBid < reference && reference < bestAsk, market).toBe(true);
      // Tight: at most 10 basis points, or two ticks where a tick is wider than that (USDP).
      const spread = bestAsk - bestBid;
      expect(spread <= 2n * tickUnits || spread * 10_000n <= 10n * reference, market).toBe(true);
      for (const level of [...bids, ...asks]) {
        expect(level.price % tickUnits, market).toBe(0n);
        expect(level.amount > 0n).toBe(true);
      }
    }
  });

  it("sends only requests that pass createOrderRequestSchema", () => {
    const { ex, tick } = world("schema", { validate: false });
    const submit = vi.spyOn(ex, "submitOrder");
    for (let i = 0; i < 20; i++) tick();
    const requests = submit.mock.calls.map((call) => call[2]);
    expect(requests.some((r) => r.type === "MARKET" && r.side === "BUY")).toBe(true);
    expect(requests.some((r) => r.type === "MARKET" && r.side === "SELL")).toBe(true);
    for (const request of requests) {
      const parsed = schema.safeParse(request);
      expect(parsed.success, JSON.stringify(request)).toBe(true);
      if (request.base_amount) expect(request.base_amount).toMatch(/^\d+(\.\d{1,8})?$/);
    }
  });

  it("lets a user's market buy fill against its quotes", () => {
    const { ex, place, tick } = world();
    tick();
    const before = ex.ledger.balance(TREASURY, "BTC").available;
    const order = place(TREASURY, { market: "BTCUSD", type: "MARKET", side: "BUY", quote_amount: "100000.00" });
    expect(order.status).toBe("FILLED");
    expect(order.filledBase > 0n).toBe(true);
    expect(ex.ledger.balance(TREASURY, "BTC").available - before).toBe(order.filledBase);
    const sell = place(TRADING, { market: "ETHEUR", type: "MARKET", side: "SELL", base_amount: "2.5" });
    expect(sell.status).toBe("FILLED");
    expect(sell.filledBase).toBe(parseAmount("2.5"));
  });

  it("is deterministic: the same seed gives the same books, another seed different ones", () => {
    const a = world("same");
    const b = world("same");
    const c = world("other");
    for (let i = 0; i < 40; i++) [a, b, c].forEach((w) => w.tick());
    expect(snapshot(a.ex)).toEqual(snapshot(b.ex));
    expect(snapshot(a.ex)).not.toEqual(snapshot(c.ex));
  });

  it("replaces its ladder rather than piling up quotes, including ones left by an earlier process", () => {
    const { ex, mm, tick } = world();
    const ladders = MARKETS.length * 2 * LEVELS;
    for (let i = 0; i < 30; i++) tick();
    expect(openOrdersOf(ex, MARKET_MAKER_PROFILE_ID).length).toBeLessThanOrEqual(ladders);
    mm.step();
    expect(openOrdersOf(ex, MARKET_MAKER_PROFILE_ID).length).toBe(ladders);
    ex.processSubmitted();
    const restarted = new MarketMaker(ex, { seed: "test", levels: LEVELS });
    restarted.step();
    expect(openOrdersOf(ex, MARKET_MAKER_PROFILE_ID).length).toBe(ladders);
    ex.processSubmitted();
    expect(openOrdersOf(ex, FLOW_TRADER_PROFILE_ID)).toEqual([]);
  });

  // 400 steps of the engine: a second alone, several on a machine busy with the other projects.
  it(
    "trades through the flow trader: the last price moves and follows the reference, assets are conserved",
    { timeout: 30_000 },
    () => {
      const { ex, mm, tick } = world("flow");
      const market: Market = "BTCUSD";
      const lasts = new Set<bigint>();
      for (let i = 0; i < 400; i++) {
        tick();
        const last = ex.tradeStats(market).last;
        if (!last) continue;
        lasts.add(last.price);
        // The last trade is a quote of this step or the last: within 0.2% of the reference.
        const reference = parseAmount(mm.referencePrice(market));
        const gap = last.price > reference ? last.price - reference : reference - last.price;
        expect(gap * 1000n <= 2n * reference, `step ${i}`).toBe(true);
      }
      expect(lasts.size).toBeGreaterThan(50);
      for (const m of MARKETS) expect(ex.tradeStats(m).last, m).not.toBeNull();
      for (const asset of ASSETS) expect(ex.ledger.total(asset), asset).toBe(depositsOf(asset));
      for (const { balance } of ex.ledger.all()) {
        expect(balance.available >= 0n && balance.trading >= 0n).toBe(true);
      }
    },
  );

  it("triggers a sell stop placed under the price once the price falls to it", () => {
    const { ex, mm, tick, place } = world("stop", { validate: false });
    tick();
    const market: Market = "ETHUSD";
    const tickUnits = parseAmount(MARKET_DETAILS[market].tick_rate);
    const reference = parseAmount(mm.referencePrice(market));
    const stopUnits = ((reference * 9985n) / 10_000n / tickUnits) * tickUnits; // 0.15% under
    const usdBefore = ex.ledger.balance(TRADING, "USD").available;
    const stop = place(TRADING, {
      market,
      type: "STOP_MARKET",
      side: "SELL",
      stop_price: formatFixed(stopUnits, 2),
      base_amount: "1.5",
    });
    expect(stop).toMatchObject({ status: "OPEN", isTriggered: false });
    let steps = 0;
    while (!stop.isTriggered && steps < 5000) {
      // It must not fire while the last trade is still above the stop.
      const last = ex.tradeStats(market).last?.price;
      expect(last === undefined || last > stopUnits).toBe(true);
      tick();
      steps++;
    }
    expect(stop.isTriggered).toBe(true);
    expect(stop.status).toBe("FILLED");
    expect(stop.filledBase).toBe(parseAmount("1.5"));
    expect(ex.ledger.balance(TRADING, "ETH").trading).toBe(0n);
    expect(ex.ledger.balance(TRADING, "USD").available - usdBefore).toBe(stop.filledQuote);
  }, 20_000);
});
