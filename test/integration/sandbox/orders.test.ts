import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderRecordSchema, subtractDecimal, type Order } from "@/lib/spec";
import { MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, profileId } from "@/lib/sandbox/seed";
import { eventually } from "../../support/dashboard";
import { sandboxClient, startSandboxServer, type SandboxServer } from "../../support/sandbox-server";

let server: SandboxServer;
let api: ReturnType<typeof sandboxClient>;
const TRADING = profileId("trading");
const ORDER_FIELDS = [
  "id",
  "profile_id",
  "ref_id",
  "status",
  "side",
  "market",
  "type",
  "base_amount",
  "price",
  "quote_amount",
  "metadata",
  "created_at",
  "modified_at",
  "amount_filled",
  "volume_weighted_average_price",
  "time_in_force",
  "expiration_date",
  "identity_id",
  "identity_account_id",
  "stop_price",
  "recipient_profile_id",
  "is_triggered",
].sort();

beforeAll(async () => {
  server = await startSandboxServer();
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

/** Liquidity from another customer (the house market maker), so the demo profiles can trade. */
function houseQuote(side: "BUY" | "SELL", price: string, base_amount: string, market = "ETHUSD") {
  return server.runtime.run((ex) => {
    const o = ex.submitOrder(MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, {
      market: market as "ETHUSD",
      type: "LIMIT",
      side,
      price,
      base_amount,
    });
    ex.processSubmitted();
    return o;
  });
}
const create = (body: object, profile = TRADING) => api.call("POST", `/profiles/${profile}/orders`, body);
let refs = 0;
const ref = () => `it-${process.pid}-${++refs}`;

describe("Create Order", () => {
  it("answers SUBMITTED with nothing filled and every field of the Order record", async () => {
    const res = await create({
      market: "ETHUSD",
      side: "BUY",
      type: "LIMIT",
      price: "1000.00",
      base_amount: "1",
      ref_id: ref(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(Object.keys(res.body).sort()).toEqual(ORDER_FIELDS);
    expect(res.body).toMatchObject({
      status: "SUBMITTED",
      amount_filled: "0.00000000",
      quote_amount: "",
      time_in_force: "GTC",
      is_triggered: false,
    });
    expect(orderRecordSchema.safeParse(res.body).success).toBe(true);
    await statusBecomes(res.body.id, "OPEN");
    const after = await api.call("GET", `/profiles/${TRADING}/orders/${res.body.id}`);
    expect(after.body.status).toBe("OPEN");
  });

  it("places every order type", async () => {
    houseQuote("SELL", "3000.00", "50");
    houseQuote("BUY", "2990.00", "50");
    const orders = [
      { type: "LIMIT", side: "BUY", price: "2000.00", base_amount: "0.1" },
      { type: "POST_ONLY_LIMIT", side: "SELL", price: "4000.00", base_amount: "0.1" },
      { type: "MARKET", side: "BUY", quote_amount: "100.00" },
      { type: "MARKET", side: "SELL", base_amount: "0.01" },
      { type: "STOP_MARKET", side: "SELL", stop_price: "2500.00", base_amount: "0.1" },
      { type: "STOP_LIMIT", side: "SELL", stop_price: "2500.00", price: "2490.00", base_amount: "0.1" },
    ];
    for (const o of orders) {
      const res = await create({ market: "ETHUSD", ...o, await_fill_millis: 200 });
      expect(res.status, o.type).toBe(200);
      expect(res.body.type).toBe(o.type);
    }
  });

  it("waits for the fill with await_fill_millis", async () => {
    houseQuote("SELL", "15.10", "5", "LINKUSD");
    const started = Date.now();
    const res = await create({
      market: "LINKUSD",
      side: "BUY",
      type: "LIMIT",
      price: "15.10",
      base_amount: "1",
      await_fill_millis: 10_000,
    });
    expect(res.body).toMatchObject({
      status: "FILLED",
      amount_filled: "1.00000000",
      volume_weighted_average_price: "15.10000000",
    });
    // Back before the wait ran out (10 s, the most the service allows): the fill ended it.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("returns after await_fill_millis when the order does not fill", async () => {
    const started = Date.now();
    const res = await create({
      market: "BTCUSD",
      side: "BUY",
      type: "LIMIT",
      price: "100.00",
      base_amount: "0.01",
      await_fill_millis: 300,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(res.body.status).toBe("OPEN");
  });

  it.each([
    [
      { market: "ETHUSD", side: "BUY", type: "LIMIT", base_amount: "1" },
      "price",
      /Price is required for a limit order/,
    ],
    [
      {
        market: "ETHUSD",
        side: "BUY",
        type: "LIMIT",
        price: "1.00",
        base_amount: "1",
        time_in_force: "GTT",
        expiration_date: String(Date.now() + 5000),
      },
      "expiration_date",
      /more than 10 seconds/,
    ],
    [{ market: "ETHUSD", side: "BUY", type: "LIMIT", price: "1.00", base_amount: "-1" }, "base_amount", /no sign/],
    [
      {
        market: "ETHUSD",
        side: "BUY",
        type: "LIMIT",
        price: "1.00",
        base_amount: "1",
        metadata: { a: "1", b: "2", c: "3", d: "4", e: "5", f: "6", g: "7" },
      },
      "metadata",
      /at most 6 pairs/,
    ],
    [
      { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "1.00", base_amount: "1", await_fill_millis: 10001 },
      "await_fill_millis",
      /at most 10000/,
    ],
    [
      { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "1.00", base_amount: "1", identity_id: "x" },
      "identity_account_id",
      /required/,
    ],
    [
      {
        market: "ETHUSD",
        side: "BUY",
        type: "LIMIT",
        price: "1.00",
        base_amount: "1",
        self_match_prevention_id: "x".repeat(37),
      },
      "self_match_prevention_id",
      /at most 36/,
    ],
    [
      { market: "ETHUSD", side: "BUY", type: "MARKET", quote_amount: "10.00", time_in_force: "GTC" },
      "time_in_force",
      /not valid/,
    ],
  ])("answers 400 naming the field: %j", async (body, field, message) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body).toMatchObject({ type: "about:blank", title: "Bad Request", status: 400 });
    expect(res.body.detail).toMatch(new RegExp(`^${field}: `));
    expect(res.body.meta.errors).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  it("answers 400 to a body that is not JSON", async () => {
    const res = await api.call("POST", `/profiles/${TRADING}/orders`, "{not json");
    expect(res.status).toBe(400);
    expect(res.body.meta.errors[0].field).toBe("body");
  });

  it("answers 403 with what is missing when the order cannot be funded", async () => {
    // Trading holds 40 BTC; 41 at 1,000 is well under the size cap.
    const res = await create({ market: "BTCUSD", side: "SELL", type: "LIMIT", price: "1000.00", base_amount: "41" });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      title: "Insufficient Funds",
      meta: { profile_id: TRADING, asset: "BTC", needed: "41" },
    });
  });

  it("answers 404 to an unknown profile and 400 to a profile id with a slash", async () => {
    const unknown = await create(
      { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "1.00", base_amount: "1" },
      "nobody",
    );
    expect(unknown).toMatchObject({ status: 404, body: { detail: "profile not found: nobody" } });
    const slash = await create(
      { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "1.00", base_amount: "1" },
      "a%2Fb",
    );
    expect(slash.status).toBe(400);
    expect(slash.body.meta.errors[0].field).toBe("profile_id");
  });

  it("answers 409 with the original order to a reused ref_id", async () => {
    const id = ref();
    const first = await create({
      market: "ETHUSD",
      side: "BUY",
      type: "LIMIT",
      price: "1000.00",
      base_amount: "1",
      ref_id: id,
    });
    const again = await create({
      market: "ETHUSD",
      side: "BUY",
      type: "LIMIT",
      price: "1000.00",
      base_amount: "1",
      ref_id: id,
    });
    expect(again.status).toBe(409);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    // The existing record whole, as Get Order reads it, so a client can tell its own lost order from another.
    const existing = (await api.call("GET", `/profiles/${TRADING}/orders/${first.body.id}`)).body;
    expect(again.body).toEqual({
      type: expect.stringMatching(/already-exists$/),
      title: "Already Exists",
      status: 409,
      detail: `order already exists with ref_id '${id}'`,
      meta: { existing },
    });
  });

  it("creates exactly one order from concurrent requests with one ref_id", async () => {
    const id = ref();
    const body = { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "1000.00", base_amount: "0.5", ref_id: id };
    const results = await Promise.all(Array.from({ length: 20 }, () => create(body)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const listed = await api.call("GET", `/orders?ref_ids=${id}`);
    expect(listed.body.items).toHaveLength(1);
  });
});

const orderOf = async (id: string) => (await api.call("GET", `/profiles/${TRADING}/orders/${id}`)).body;
const statusBecomes = (id: string, status: string) =>
  eventually(async () => ((await orderOf(id)).status === status ? true : undefined), 5000, `order ${id} ${status}`);
const usd = async () =>
  (await api.call("GET", `/profiles/${TRADING}/balances`)).body.items.find(
    (b: { asset: string }) => b.asset === "USD",
  ) as { available: string; trading: string };

describe("cancel and read", () => {
  it("acknowledges a cancel with {}; the order is CANCELLED shortly after, its hold released then", async () => {
    const o = await create({ market: "LTCUSD", side: "BUY", type: "LIMIT", price: "10.00", base_amount: "1" });
    await statusBecomes(o.body.id, "OPEN");
    const held = await usd();
    const cancel = await api.call("DELETE", `/profiles/${TRADING}/orders/${o.body.id}`);
    expect(cancel).toMatchObject({ status: 200, body: {} });
    // Acknowledged, not done: "no guarantee the order has been cancelled".
    expect((await orderOf(o.body.id)).status).toBe("OPEN");
    expect(await usd()).toEqual(held);
    // Asked again while pending: acknowledged again.
    expect((await api.call("DELETE", `/profiles/${TRADING}/orders/${o.body.id}`)).status).toBe(200);
    await statusBecomes(o.body.id, "CANCELLED");
    expect(subtractDecimal(held.trading, (await usd()).trading)).toBe("10");
    const again = await api.call("DELETE", `/profiles/${TRADING}/orders/${o.body.id}`);
    expect(again).toMatchObject({ status: 403, body: { detail: "order is not in cancellable state" } });
  });

  it("lets a fill in between win: the order is FILLED, not CANCELLED", async () => {
    const o = await create({ market: "BCHUSD", side: "BUY", type: "LIMIT", price: "300.00", base_amount: "1" });
    await statusBecomes(o.body.id, "OPEN");
    expect((await api.call("DELETE", `/profiles/${TRADING}/orders/${o.body.id}`)).status).toBe(200);
    houseQuote("SELL", "300.00", "1", "BCHUSD");
    expect((await orderOf(o.body.id)).status).toBe("FILLED");
    // A later cancel taking effect shows the first one's time has come and gone.
    const marker = await create({ market: "LTCUSD", side: "BUY", type: "LIMIT", price: "10.00", base_amount: "1" });
    await statusBecomes(marker.body.id, "OPEN");
    await api.call("DELETE", `/profiles/${TRADING}/orders/${marker.body.id}`);
    await statusBecomes(marker.body.id, "CANCELLED");
    expect(await orderOf(o.body.id)).toMatchObject({ status: "FILLED", amount_filled: "1.00000000" });
  });

  it("answers 404 to an order of another profile", async () => {
    const o = await create({ market: "LTCUSD", side: "BUY", type: "LIMIT", price: "10.00", base_amount: "1" });
    const res = await api.call("GET", `/profiles/${profileId("treasury")}/orders/${o.body.id}`);
    expect(res.status).toBe(404);
  });

  it("lists with filters and cursor pagination, newest first", async () => {
    const placed = [];
    for (let i = 0; i < 5; i++) {
      placed.push(
        (await create({ market: "UNIUSD", side: "BUY", type: "LIMIT", price: `${5 + i}.00`, base_amount: "1" })).body
          .id,
      );
    }
    const seen: string[] = [];
    let cursor = "";
    do {
      const res = await api.call("GET", `/orders?market=UNIUSD&limit=2${cursor ? `&page_cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((o: { id: string }) => o.id));
      cursor = res.body.next_page_cursor;
    } while (cursor);
    expect(seen).toEqual([...placed].reverse());
  });

  it("the last page has no next_page_cursor key; a full page has one even when nothing follows", async () => {
    for (let i = 0; i < 4; i++) {
      await create({ market: "MATICUSD", side: "BUY", type: "LIMIT", price: `0.${10 + i}00`, base_amount: "1" });
    }
    const first = await api.call("GET", "/orders?market=MATICUSD&limit=3");
    expect(first.body.items).toHaveLength(3);
    const last = await api.call("GET", `/orders?market=MATICUSD&limit=3&page_cursor=${first.body.next_page_cursor}`);
    expect(last.body.items).toHaveLength(1);
    expect(Object.keys(last.body)).toEqual(["items"]);
    const full = await api.call("GET", "/orders?market=MATICUSD&limit=4");
    expect(typeof full.body.next_page_cursor).toBe("string");
    const after = await api.call("GET", `/orders?market=MATICUSD&limit=4&page_cursor=${full.body.next_page_cursor}`);
    expect(after.body).toEqual({ items: [] });
  });

  it("answers 400 naming a bad query parameter", async () => {
    const res = await api.call("GET", "/orders?limit=0");
    expect(res.status).toBe(400);
    expect(res.body.meta.errors[0]).toEqual({ field: "limit", message: "limit must be at least 1" });
    expect((await api.call("GET", "/orders?status=DONE")).body.meta.errors[0].field).toBe("status");
  });
});

describe("unused amounts, per endpoint as the reference shows them", () => {
  it('List Orders shows "0" where Create and Get Order show ""', async () => {
    houseQuote("SELL", "3100.00", "10");
    const lim = await create({ market: "ETHUSD", side: "BUY", type: "LIMIT", price: "2000.00", base_amount: "0.1" });
    const buy = await create({ market: "ETHUSD", side: "BUY", type: "MARKET", quote_amount: "310.00" });
    const amounts = (o: { price: string; base_amount: string; quote_amount: string }) => [
      o.price,
      o.base_amount,
      o.quote_amount,
    ];
    expect(amounts(lim.body)).toEqual(["2000.00", "0.1", ""]);
    expect(amounts(buy.body)).toEqual(["", "", "310.00"]);
    expect(amounts(await orderOf(lim.body.id))).toEqual(["2000.00", "0.1", ""]);
    await statusBecomes(buy.body.id, "FILLED");
    const listed = (await api.call("GET", "/orders?market=ETHUSD&limit=1000")).body.items as Order[];
    const find = (id: string) => listed.find((o) => o.id === id)!;
    expect(amounts(find(lim.body.id))).toEqual(["2000.00", "0.1", "0"]);
    expect(amounts(find(buy.body.id))).toEqual(["0", "0", "310.00"]);
    expect(orderRecordSchema.safeParse(find(buy.body.id)).success).toBe(true);
  });
});

describe("markets", () => {
  it("lists every market with its tick", async () => {
    const res = await fetch(`${server.url}/sandbox/v2/markets`);
    const body = (await res.json()) as { markets: { market: string; tick_rate: string }[] };
    expect(body.markets).toHaveLength(14);
    expect(body.markets.find((m) => m.market === "BTCUSD")).toMatchObject({
      base_asset: "BTC",
      quote_asset: "USD",
      tick_rate: "0.25",
    });
  });

  it("shows the book and the ticker", async () => {
    houseQuote("SELL", "60.00", "2", "AAVEUSD");
    houseQuote("BUY", "59.00", "3", "AAVEUSD");
    const book = (await (await fetch(`${server.url}/sandbox/v2/markets/AAVEUSD/order-book`)).json()) as Record<
      string,
      unknown
    >;
    expect(book).toEqual({
      market: "AAVEUSD",
      bids: [{ price: "59", amount: "3" }],
      asks: [{ price: "60", amount: "2" }],
    });
    const ticker = (await (await fetch(`${server.url}/sandbox/v2/markets/AAVEUSD/ticker`)).json()) as Record<
      string,
      unknown
    >;
    expect(ticker).toMatchObject({
      market: "AAVEUSD",
      best_bid: { price: "59", amount: "3" },
      best_ask: { price: "60", amount: "2" },
    });
    expect((await fetch(`${server.url}/sandbox/v2/markets/DOGEUSD/ticker`)).status).toBe(400);
  });
});
