import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_POLICY, type Policy } from "@/lib/policy";
import { createInternalTransfer, createOrder } from "@/lib/server/creates";
import { testRuntime } from "../../support/runtime";

const trader = { email: "trader@example.com", name: "Taylor Trader", role: "trader" as const };
const ops = { email: "ops@example.com", name: "Oakley Ops", role: "ops" as const };
const level = (price: string, amount = "1000") => ({ price, amount });

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

/**
 * A service quoting BTCUSD at 99,999 / 100,001 (mid 100,000), with asks stepping up 2% a level,
 * and BTCEUR at a mid of 80,000 (so 1 EUR is 1.25 USD); it creates whatever it is sent.
 */
async function setUp(policy: Policy = DEFAULT_POLICY) {
  const rt = await testRuntime((req) => {
    if (req.path === "/markets/BTCUSD/ticker") return { body: { best_bid: level("99999"), best_ask: level("100001") } };
    if (req.path === "/markets/BTCEUR/ticker") return { body: { best_bid: level("79999"), best_ask: level("80001") } };
    if (req.path.endsWith("/order-book")) {
      return {
        body: { bids: [level("99999", "1")], asks: ["100001", "102000", "104000", "106000"].map((p) => level(p, "1")) },
      };
    }
    if (req.method === "GET") return { body: { items: [] } };
    return { body: { id: "created", ...(req.body as object) } };
  });
  dispose = rt.dispose;
  await rt.runtime.db
    .insertInto("policy")
    .values({ id: 1, document_json: JSON.stringify(policy), updated_at: "", updated_by: "test" })
    .execute();
  const sent = () => rt.calls.filter((c) => c.method === "POST").length;
  return { ...rt, sent };
}

const btcBuy = (price: string, base: string, ref: string) => ({
  market: "BTCUSD",
  side: "BUY",
  type: "LIMIT",
  price,
  base_amount: base,
  ref_id: ref,
});
const problemOf = (p: Promise<unknown>) => p.then(() => undefined).catch((e: { problem: unknown }) => e.problem);

describe("the desk's controls on a create", () => {
  it("holds an order worth 100,000 USD or more for approval (202), and sends one just below", async () => {
    const { runtime, sent } = await setUp();
    const held = await createOrder(runtime, "trading", btcBuy("100000.00", "1", "at"), { user: trader, ip: null });
    expect(held).toMatchObject({
      status: 202,
      body: { approval: { status: "PENDING", kind: "order", approvals: [] } },
    });
    expect((held.body as { approval: { value_usd: string } }).approval.value_usd).toBe("100000.00000000");
    expect(sent()).toBe(0);
    const below = await createOrder(runtime, "trading", btcBuy("99999.75", "1", "below"), { user: trader, ip: null });
    expect(below.status).toBe(200);
    expect(sent()).toBe(1);
  });

  it("values a transfer in EUR by the BTC cross: 8,000 EUR is 10,000 USD and needs approval", async () => {
    const { runtime, sent } = await setUp();
    const transfer = (amount: string, ref: string) => ({
      from_profile_id: "treasury",
      to_profile_id: "settlement",
      asset: "EUR",
      amount,
      ref_id: ref,
    });
    expect((await createInternalTransfer(runtime, transfer("8000", "t-at"), { user: ops, ip: null })).status).toBe(202);
    expect(
      (await createInternalTransfer(runtime, transfer("7999.99", "t-below"), { user: ops, ip: null })).status,
    ).toBe(200);
    expect(sent()).toBe(1);
  });

  it("refuses a transfer of an asset no market prices in USD, on its field, and a missing price as a 503", async () => {
    const { runtime, sent } = await setUp();
    const transfer = (asset: string, ref: string) => ({
      from_profile_id: "treasury",
      to_profile_id: "settlement",
      asset,
      amount: "1",
      ref_id: ref,
    });
    expect(
      await problemOf(createInternalTransfer(runtime, transfer("XYZ", "t-xyz"), { user: ops, ip: null })),
    ).toMatchObject({
      status: 400,
      meta: {
        errors: [
          { field: "asset", message: expect.stringContaining("no market at the service that prices it in USD") },
        ],
      },
    });
    // ETH has its market, but this service quotes no ETHUSD: a passing want of a price, not a bad request.
    expect(
      await problemOf(createInternalTransfer(runtime, transfer("ETH", "t-eth"), { user: ops, ip: null })),
    ).toMatchObject({
      status: 503,
      title: "Price Unavailable",
    });
    expect(sent()).toBe(0);
  });

  it("refuses an order past the role's limit, naming the limit and the figures", async () => {
    const policy: Policy = {
      ...DEFAULT_POLICY,
      approval_rules: [],
      limits: { ...DEFAULT_POLICY.limits, max_order_notional_usd: { trader: "50000" } },
    };
    const { runtime, sent } = await setUp(policy);
    expect(
      (await createOrder(runtime, "trading", btcBuy("50000.00", "1", "ok"), { user: trader, ip: null })).status,
    ).toBe(200);
    const refused = await problemOf(
      createOrder(runtime, "trading", btcBuy("50000.25", "1", "no"), { user: trader, ip: null }),
    );
    expect(refused).toMatchObject({
      status: 403,
      title: "Limit Exceeded",
      meta: { rule: "max_order_notional_usd", role: "trader", limit: "50000", requested: "50000.25" },
    });
    expect(sent()).toBe(1);
  });

  it("refuses an order that would pass the person's daily total", async () => {
    const policy: Policy = {
      ...DEFAULT_POLICY,
      approval_rules: [],
      limits: { ...DEFAULT_POLICY.limits, daily_order_notional_usd_per_user: "100000" },
    };
    const { runtime } = await setUp(policy);
    const ctx = { user: trader, ip: null };
    expect((await createOrder(runtime, "trading", btcBuy("60000.00", "1", "d1"), ctx)).status).toBe(200);
    expect((await createOrder(runtime, "trading", btcBuy("40000.00", "1", "d2"), ctx)).status).toBe(200);
    const refused = await problemOf(createOrder(runtime, "trading", btcBuy("0.25", "1", "d3"), ctx));
    expect(refused).toMatchObject({
      status: 403,
      meta: { rule: "daily_order_notional_usd_per_user", limit: "100000", used: "100000.00", requested: "0.25" },
    });
  });

  it("asks for the market's name past the price guard, and audits the confirmation", async () => {
    const { runtime, sent } = await setUp({ ...DEFAULT_POLICY, approval_rules: [] });
    // Sweeps the asks up to 106,000 (one BTC a level): 6% from the mid of 100,000, past the 5% guard.
    const sweep = btcBuy("106000.00", "3.5", "sweep");
    const refused = await problemOf(createOrder(runtime, "trading", sweep, { user: trader, ip: null }));
    expect(refused).toMatchObject({
      status: 428,
      meta: { market: "BTCUSD", mid: "100000.00000000", deviation_percent: "6.00", limit_percent: "5" },
    });
    expect(sent()).toBe(0);
    const wrong = await problemOf(
      createOrder(runtime, "trading", sweep, { user: trader, ip: null, confirmedMarket: "ETHUSD" }),
    );
    expect(wrong).toMatchObject({ status: 428 });
    const confirmed = await createOrder(runtime, "trading", sweep, {
      user: trader,
      ip: null,
      confirmedMarket: "btcusd",
    });
    expect(confirmed.status).toBe(200);
    const actions = await runtime.db.selectFrom("audit").select("action").orderBy("seq").execute();
    expect(actions.map((a) => a.action)).toEqual(["price-guard.confirmed", "create.requested", "create.succeeded"]);
  });
});
