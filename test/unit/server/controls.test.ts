import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_POLICY, type Policy } from "@/lib/shared/policy";
import { approve } from "@/lib/server/approvals/decisions";
import { createInternalTransfer, createOrder } from "@/lib/server/create/pipeline";
import { fakeService, level, type FakeService } from "../../support/fake-service";
import { testRuntime } from "../../support/runtime";

const trader = { email: "trader@example.com", name: "Taylor Trader", role: "trader" as const };
const ops = { email: "ops@example.com", name: "Oakley Ops", role: "ops" as const };
const approver = { email: "approver@example.com", name: "Alex Approver", role: "approver" as const };

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

/** BTCUSD at 99,999 / 100,001 (mid 100,000), asks stepping up 2% a level; BTCEUR at a mid of 80,000 (1 EUR is 1.25 USD). */
const MARKET: FakeService = {
  tickers: { BTCUSD: ["99999", "100001"], BTCEUR: ["79999", "80001"] },
  books: {
    BTCUSD: { bids: [level("99999", "1")], asks: ["100001", "102000", "104000", "106000"].map((p) => level(p, "1")) },
  },
};

/** A service quoting MARKET (or `service`) that creates whatever it is sent, under `policy`. */
async function setUp(policy: Policy = DEFAULT_POLICY, service: FakeService = MARKET) {
  const rt = await testRuntime(fakeService(service));
  dispose = rt.dispose;
  await rt.runtime.db
    .insertInto("policy")
    .values({ id: 1, document_json: JSON.stringify(policy), updated_at: "", updated_by: "test" })
    .execute();
  const sent = () => rt.calls.filter((c) => c.method === "POST").length;
  const actions = async () =>
    (await rt.runtime.db.selectFrom("audit").select("action").orderBy("seq").execute()).map((a) => a.action);
  return { ...rt, sent, actions };
}

const btcBuy = (price: string, base: string, ref: string, extra = {}) => ({
  market: "BTCUSD",
  side: "BUY",
  type: "LIMIT",
  price,
  base_amount: base,
  ref_id: ref,
  ...extra,
});
const transfer = (amount: string, ref: string, asset = "USD", extra = {}) => ({
  from_profile_id: "treasury",
  to_profile_id: "settlement",
  asset,
  amount,
  ref_id: ref,
  ...extra,
});
const problemOf = (p: Promise<unknown>) => p.then(() => undefined).catch((e: { problem: unknown }) => e.problem);
const asTrader = { user: trader, ip: null };
const asOps = { user: ops, ip: null };
const noRules = (limits: Partial<Policy["limits"]> = {}): Policy => ({
  ...DEFAULT_POLICY,
  approval_rules: [],
  limits: { ...DEFAULT_POLICY.limits, ...limits },
});

describe("valuing a create", () => {
  it("values an order at quantity × the larger of its own price and the mid", async () => {
    const { runtime, sent } = await setUp();
    // A bid below the mid is worth the mid: 1 × 100,000 reaches the 100,000 USD rule.
    const held = await createOrder(runtime, "trading", btcBuy("90000.00", "1", "low"), asTrader);
    expect(held).toMatchObject({ status: 202, body: { approval: { value_usd: "100000.00000000" } } });
    const below = await createOrder(runtime, "trading", btcBuy("99999.75", "0.99", "below"), asTrader);
    expect(below.status).toBe(200);
    expect(sent()).toBe(1);
  });

  it("values a sell stop-limit limited far below the market at the mid, not its own price", async () => {
    const { runtime, sent } = await setUp();
    const stop = {
      market: "BTCUSD",
      side: "SELL",
      type: "STOP_LIMIT",
      stop_price: "150000.00",
      price: "0.25",
      base_amount: "5",
      ref_id: "stop",
    };
    // Its stop is already reached: it would take at once, 99.99% from the mid, so the guard asks first.
    expect(await problemOf(createOrder(runtime, "trading", stop, asTrader))).toMatchObject({
      status: 428,
      meta: { price: "0.25", deviation_percent: "99.99" },
    });
    const held = await createOrder(runtime, "trading", stop, { ...asTrader, confirmedMarket: "BTCUSD" });
    // 5 × the mid of 100,000, not 5 × 0.25: over the 100,000 USD rule, so held.
    expect(held).toMatchObject({ status: 202, body: { approval: { value_usd: "500000.00000000" } } });
    expect(sent()).toBe(0);
  });

  it("values a transfer in EUR by the BTC cross: 8,000 EUR is 10,000 USD and needs approval", async () => {
    const { runtime, sent } = await setUp();
    expect((await createInternalTransfer(runtime, transfer("8000", "t-at", "EUR"), asOps)).status).toBe(202);
    expect((await createInternalTransfer(runtime, transfer("7.99", "t-below", "EUR"), asOps)).status).toBe(200);
    expect(sent()).toBe(1);
  });

  it("holds a transfer of an asset no market prices in USD for approval, 'no USD price'; a missing price is a 503", async () => {
    const { runtime, sent } = await setUp();
    const held = await createInternalTransfer(runtime, transfer("1", "t-xyz", "XYZ"), asOps);
    expect(held).toMatchObject({
      status: 202,
      body: { approval: { status: "PENDING", value_usd: null, hold_reason: "no USD price" } },
    });
    // ETH has its market, but this service quotes no ETHUSD: a passing want of a price, not a hold.
    expect(await problemOf(createInternalTransfer(runtime, transfer("1", "t-eth", "ETH"), asOps))).toMatchObject({
      status: 503,
      title: "Price Unavailable",
    });
    expect(sent()).toBe(0);
  });
});

describe("the limits", () => {
  it("refuses an order past the role's limit, naming the limit and the figures, and audits it", async () => {
    const { runtime, sent, actions } = await setUp(noRules({ max_order_notional_usd: { trader: "50000" } }));
    expect((await createOrder(runtime, "trading", btcBuy("50000.00", "0.5", "ok"), asTrader)).status).toBe(200);
    const refused = await problemOf(createOrder(runtime, "trading", btcBuy("100001.00", "0.5", "no"), asTrader));
    expect(refused).toMatchObject({
      status: 403,
      title: "Limit Exceeded",
      meta: { rule: "max_order_notional_usd", role: "trader", limit: "50000", requested: "50000.50" },
    });
    expect(sent()).toBe(1);
    expect(await actions()).toContain("limit.refused");
  });

  it("refuses an order that would pass the person's daily total", async () => {
    const { runtime } = await setUp(noRules({ daily_order_notional_usd_per_user: "100000" }));
    expect((await createOrder(runtime, "trading", btcBuy("100000.00", "0.6", "d1"), asTrader)).status).toBe(200);
    expect((await createOrder(runtime, "trading", btcBuy("100000.00", "0.4", "d2"), asTrader)).status).toBe(200);
    const refused = await problemOf(createOrder(runtime, "trading", btcBuy("100000.00", "0.00000001", "d3"), asTrader));
    expect(refused).toMatchObject({
      status: 403,
      meta: { rule: "daily_order_notional_usd_per_user", limit: "100000", used: "100000.00", requested: "0.00" },
    });
  });

  it("holds the transfer that brings a person's 24 h total sent without approval to the threshold", async () => {
    const { runtime, sent } = await setUp();
    // Split under the 10,000 USD rule: the second brings the total to 19,998.
    const first = await createInternalTransfer(runtime, transfer("9999", "split-1"), asOps);
    expect(first.status).toBe(200);
    const second = await createInternalTransfer(
      runtime,
      transfer("9999", "split-2", "USD", { metadata: { n: "2" } }),
      asOps,
    );
    expect(second).toMatchObject({
      status: 202,
      body: { approval: { hold_reason: expect.stringContaining("19,998.00 USD") } },
    });
    // Someone else's total is their own.
    const other = await createInternalTransfer(runtime, transfer("9999", "split-3"), {
      user: { ...ops, email: "ops2@example.com" },
      ip: null,
    });
    expect(other.status).toBe(200);
    expect(sent()).toBe(2);
  });

  it("refuses a transfer past the daily transfer limit, with approved and waiting transfers counted", async () => {
    const policy: Policy = {
      ...DEFAULT_POLICY,
      limits: { ...DEFAULT_POLICY.limits, daily_transfer_usd_per_user: "50000" },
    };
    const { runtime } = await setUp(policy);
    const held = await createInternalTransfer(runtime, transfer("20000", "big-1"), asOps);
    expect(held.status).toBe(202);
    const id = (held.body as { approval: { id: string } }).approval.id;
    expect((await approve(runtime, approver, id, null)).outcome).toMatchObject({ status: 200, sent: true });
    expect(
      (await createInternalTransfer(runtime, transfer("20001", "big-2", "USD", { metadata: { n: "2" } }), asOps))
        .status,
    ).toBe(202);
    // 20,000 sent with approval and 20,001 waiting: 10,000 more passes 50,000.
    const refused = await problemOf(createInternalTransfer(runtime, transfer("10000", "big-3"), asOps));
    expect(refused).toMatchObject({
      status: 403,
      meta: { rule: "daily_transfer_usd_per_user", limit: "50000", used: "40001.00", requested: "10000.00" },
    });
  });

  it("sends exactly as many of 10 parallel orders as the daily limit has room for", async () => {
    const { runtime, sent } = await setUp(noRules({ daily_order_notional_usd_per_user: "120000" }));
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        createOrder(
          runtime,
          "trading",
          btcBuy("100000.00", "0.4", `par-${i}`, { metadata: { n: String(i) } }),
          asTrader,
        ),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled" && r.value.status === 200)).toHaveLength(3);
    const refused = results
      .filter((r) => r.status === "rejected")
      .map((r) => (r.reason as { problem: { status: number } }).problem);
    expect(refused).toHaveLength(7);
    expect(refused.every((p) => p.status === 403)).toBe(true);
    expect(sent()).toBe(3);
  });
});

describe("an order settling into another profile", () => {
  const admin = { email: "admin@example.com", name: "Ari Admin", role: "admin" as const };
  const asAdmin = { user: admin, ip: null };
  const elsewhere = (price: string, base: string, ref: string) =>
    btcBuy(price, base, ref, { recipient_profile_id: "settlement" });
  const rules = (order: Partial<Policy["approval_rules"][number]>): Policy => ({
    ...DEFAULT_POLICY,
    approval_rules: [
      { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
      { kind: "order", threshold_usd: "100000", approvals_needed: 1, open_minutes: 120, ...order },
    ],
  });

  it("is held by the stricter of the order and transfer rules it reaches: more approvals first", async () => {
    const { runtime, sent } = await setUp(rules({ threshold_usd: "30000", approvals_needed: 2 }));
    // 0.5 × 100,000 = 50,000 USD: past the order rule (2 approvals) and the transfer rule (1).
    const held = await createOrder(runtime, "trading", elsewhere("100000.00", "0.5", "two"), asAdmin);
    expect(held).toMatchObject({
      status: 202,
      body: {
        approval: {
          kind: "order",
          approvals_needed: 2,
          rule: { kind: "order", threshold_usd: "30000" },
          hold_reason: expect.stringContaining("weighed as one too; the order rule holds it"),
        },
      },
    });
    expect(sent()).toBe(0);
  });

  it("on a tie, is held by the transfer rule", async () => {
    const { runtime } = await setUp(rules({ threshold_usd: "30000" }));
    const held = await createOrder(runtime, "trading", elsewhere("100000.00", "0.5", "tie"), asAdmin);
    expect(held).toMatchObject({ status: 202, body: { approval: { rule: { kind: "transfer" } } } });
  });

  it("is sent under both thresholds, and refused to a role that may not transfer", async () => {
    const { runtime, sent } = await setUp();
    expect((await createOrder(runtime, "trading", elsewhere("100000.00", "0.05", "small"), asAdmin)).status).toBe(200);
    const refused = await problemOf(createOrder(runtime, "trading", elsewhere("100000.00", "0.05", "nope"), asTrader));
    expect(refused).toMatchObject({ status: 403, meta: { action: "transfers:create" } });
    expect(sent()).toBe(1);
  });
});

describe("failing fast", () => {
  it("refuses at once, never holds, a transfer over the balance or to a profile that does not exist", async () => {
    const { runtime, sent } = await setUp(DEFAULT_POLICY, {
      ...MARKET,
      balances: { treasury: { USD: "15000" }, settlement: {}, nowhere: null },
    });
    const over = await problemOf(createInternalTransfer(runtime, transfer("20000", "over"), asOps));
    expect(over).toMatchObject({
      status: 403,
      title: "Insufficient Funds",
      meta: { profile_id: "treasury", asset: "USD", available: "15000", needed: "20000" },
    });
    const unknown = await problemOf(
      createInternalTransfer(
        runtime,
        { ...transfer("20000", "lost"), to_profile_id: "nowhere", amount: "12000" },
        asOps,
      ),
    );
    expect(unknown).toMatchObject({ status: 404, meta: { profile_id: "nowhere" } });
    expect(await runtime.db.selectFrom("approvals").selectAll().execute()).toEqual([]);
    expect(sent()).toBe(0);
  });
});

describe("the price guard", () => {
  it("weighs a buy limit's own price: 20% above the mid is asked about though the best ask fills it", async () => {
    const { runtime, sent, actions } = await setUp(noRules());
    const refused = await problemOf(createOrder(runtime, "trading", btcBuy("120000.00", "0.01", "above"), asTrader));
    expect(refused).toMatchObject({
      status: 428,
      meta: { market: "BTCUSD", price: "120000.00", deviation_percent: "20.00", limit_percent: "5" },
    });
    // A bid far below the market rests: it takes nothing, and is not asked about.
    expect((await createOrder(runtime, "trading", btcBuy("50000.00", "0.01", "rests"), asTrader)).status).toBe(200);
    expect(sent()).toBe(1);
    expect(await actions()).toContain("price_guard.confirm_asked");
  });

  it("asks for the market's name past the guard, and audits the question and the confirmation", async () => {
    const { runtime, sent, actions } = await setUp(noRules());
    const sweep = { market: "BTCUSD", side: "BUY", type: "MARKET", quote_amount: "350000.00", ref_id: "sweep" };
    // Sweeps the asks up to 106,000: 6% from the mid of 100,000, past the 5% guard.
    const refused = await problemOf(createOrder(runtime, "trading", sweep, asTrader));
    expect(refused).toMatchObject({
      status: 428,
      meta: {
        market: "BTCUSD",
        mid: "100000.00000000",
        price: "106000",
        deviation_percent: "6.00",
        limit_percent: "5",
      },
    });
    expect(sent()).toBe(0);
    expect(
      await problemOf(createOrder(runtime, "trading", sweep, { ...asTrader, confirmedMarket: "ETHUSD" })),
    ).toMatchObject({
      status: 428,
    });
    const confirmed = await createOrder(runtime, "trading", sweep, { ...asTrader, confirmedMarket: "btcusd" });
    expect(confirmed.status).toBe(200);
    expect(await actions()).toEqual([
      "price_guard.confirm_asked",
      "price_guard.confirm_asked",
      "price-guard.confirmed",
      "create.requested",
      "create.succeeded",
    ]);
  });

  it("fails closed: no book or no ticker is a 503, and nothing is sent", async () => {
    const unavailable = { status: 503, body: { type: "about:blank", title: "Unavailable", status: 503 } };
    const rt = await testRuntime((req) =>
      req.path.endsWith("/order-book") || req.path === "/markets/ETHUSD/ticker"
        ? unavailable
        : fakeService(MARKET)(req),
    );
    dispose = rt.dispose;
    const market = { market: "BTCUSD", side: "BUY", type: "MARKET", quote_amount: "10.00", ref_id: "m" };
    expect(await problemOf(createOrder(rt.runtime, "trading", market, asTrader))).toMatchObject({
      status: 503,
      title: "Price Unavailable",
    });
    const eth = { ...btcBuy("100.00", "0.01", "e"), market: "ETHUSD" };
    expect(await problemOf(createOrder(rt.runtime, "trading", eth, asTrader))).toMatchObject({ status: 503 });
    // A market that answers with no price at all (an empty book, no trade) is read: a bid there rests.
    const ltc = { ...btcBuy("100.00", "0.01", "l"), market: "LTCUSD" };
    expect((await createOrder(rt.runtime, "trading", ltc, asTrader)).status).toBe(200);
    expect(rt.calls.filter((c) => c.method === "POST")).toHaveLength(1);
  });
});
