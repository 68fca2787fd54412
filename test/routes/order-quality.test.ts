import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parentsIdle } from "@/lib/server/parent-orders/scheduler";
import {
  expectProblem,
  houseOrder,
  inProcessDashboard,
  newRef,
  sandboxTurn,
  TRADING,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * GET /api/orders/{order_id}/quality and the orders CSV's quality columns (issue 29), through the
 * route handlers in process, on each database: an order sent through the dashboard keeps the mid
 * it arrived at and its slippage against it, exactly; an order placed straight at the service has
 * no arrival; a parent order's id answers the parent's quality; an unknown id is a 404. The house
 * (the sandbox's market maker's customer) rests the quotes, so the demo customer has someone to
 * trade with; each test moves the clock on first, so no order's window holds another test's trades.
 */

const ORDERS = `/api/v2/profiles/${TRADING}/orders`;
/** The same orders at the service itself (d.sandbox). */
const AT_SERVICE = `/profiles/${TRADING}/orders`;

describe.each<Database>(["sqlite", "postgres"])("order quality on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await inProcessDashboard({ database });
  });
  afterAll(async () => {
    await d?.dispose();
  });

  /** The house rests an order of `size` at `price` on `market`: liquidity of another customer's. */
  const house = (side: "BUY" | "SELL", price: string, size = "1", market: "BTCUSD" | "ETHUSD" = "BTCUSD") =>
    houseOrder(d.app.runtime.sandbox!, side, price, size, market);

  /** Clears every resting order (the house's, and what a test left), so each test sets its own book. */
  function clearBook() {
    d.app.runtime.sandbox!.run((ex) => {
      for (const o of [...ex.orders.values()]) {
        if (["OPEN", "SUBMITTED"].includes(o.status)) ex.cancelOrder(o.customerId, o.profileId, o.id);
      }
      ex.processSubmitted();
    });
  }

  beforeEach(() => {
    clearBook();
    d.app.clock.advance(60_000);
  });

  const btc = (side: "BUY" | "SELL", price: string, extra: Record<string, unknown> = {}) => {
    const ref_id = newRef("quality");
    return {
      market: "BTCUSD",
      side,
      type: "LIMIT",
      time_in_force: "IOC",
      price,
      base_amount: "0.1",
      ref_id,
      metadata: { test: ref_id },
      ...extra,
    };
  };

  /** The order `ref_id` as the service has it once matched. */
  async function filled(id: string) {
    await sandboxTurn();
    const res = await d.sandbox.call("GET", `${AT_SERVICE}/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  const quality = (id: string, as: "trader" | "viewer" = "trader", query = "") =>
    d.as[as].call("GET", `/api/orders/${id}/quality${query}`);

  it("keeps the mid a buy sent through the dashboard arrived at: filled above it, a positive cost, exact", async () => {
    house("SELL", "60100");
    house("BUY", "59900");
    const sent = await d.as.trader.call("POST", ORDERS, btc("BUY", "60100"));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const order = await filled(sent.body.id);
    expect(order.status).toBe("FILLED");

    const res = await quality(order.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The same with its profile named, as the orders table asks: its arrival then found by its ref_id.
    expect((await quality(order.id, "viewer", `?profile_id=${TRADING}`)).body).toEqual(res.body);
    const [entry] = await d.journal(sent.body.ref_id);
    expect(res.body).toEqual({
      order_id: order.id,
      arrival_mid: "60000",
      arrival_at: entry!.created_at,
      filled: "0.1",
      fill_vwap: "60100",
      // (60,100 − 60,000) / 60,000 × 10,000 = 16.666…, to 2 decimals.
      slippage_bps: "16.67",
      // The market's only trade over the order's life was its own fill.
      market_vwap: "60100",
      window_start: expect.any(String),
      window_end: new Date(order.modified_at).toISOString(),
    });
    expect(Date.parse(res.body.window_start)).toBeLessThanOrEqual(Date.parse(order.created_at));
    expect(Date.parse(res.body.window_start)).toBeLessThanOrEqual(Date.parse(entry!.created_at));
  });

  it("keeps, for an order an approver released, the mid when it was released: the moment it was sent", async () => {
    house("SELL", "60010");
    house("BUY", "59990");
    // 2 BTC at 60,100: over the order rule's threshold (100,000 USD), held for four eyes.
    const asked = await d.as.trader.call(
      "POST",
      ORDERS,
      btc("BUY", "60100", { base_amount: "2", time_in_force: "GTC" }),
    );
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    // The market moves while it waits.
    clearBook();
    house("SELL", "60600");
    house("BUY", "60400");
    const approved = await d.as.approver.call("POST", `/api/approvals/${asked.body.approval.id}/approve`);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const sent = approved.body.approval.outcome;
    expect(sent.status, JSON.stringify(sent)).toBe(200);
    const res = await quality(sent.body.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [entry] = await d.journal(sent.body.ref_id);
    expect(res.body).toMatchObject({ arrival_mid: "60500", arrival_at: entry!.created_at, filled: "0" });
  });

  it("a sell filled below the arrival mid is a positive cost too; a buy filled below it, a saving", async () => {
    house("BUY", "59940");
    house("SELL", "60060");
    // Mid 60,000: sold at 59,940, 60 below it, received less: 10 bps of cost.
    const below = await d.as.trader.call("POST", ORDERS, btc("SELL", "59940"));
    expect(below.status, JSON.stringify(below.body)).toBe(200);
    await filled(below.body.id);
    expect((await quality(below.body.id)).body).toMatchObject({ arrival_mid: "60000", slippage_bps: "10.00" });

    // A buy resting below the mid, filled there later by someone's sell: a saving, negative.
    clearBook();
    d.app.clock.advance(60_000);
    house("BUY", "59900");
    house("SELL", "60100");
    const resting = await d.as.trader.call("POST", ORDERS, btc("BUY", "59950", { time_in_force: "GTC" }));
    expect(resting.status, JSON.stringify(resting.body)).toBe(200);
    await sandboxTurn();
    house("SELL", "59950", "0.1");
    expect((await filled(resting.body.id)).status).toBe("FILLED");
    // (59,950 − 60,000) / 60,000 × 10,000 = −8.333…
    expect((await quality(resting.body.id)).body).toMatchObject({
      arrival_mid: "60000",
      fill_vwap: "59950",
      slippage_bps: "-8.33",
    });
  });

  it("answers arrival_mid null for an order placed straight at the service, found with or without its profile", async () => {
    // ETHUSD: no answer of its recent executions is kept yet, so the first read sees this fill.
    house("SELL", "3010", "1", "ETHUSD");
    house("BUY", "2990", "1", "ETHUSD");
    const placed = await d.sandbox.call("POST", AT_SERVICE, btc("BUY", "3010", { market: "ETHUSD" }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const order = await filled(placed.body.id);
    for (const query of ["", `?profile_id=${TRADING}`]) {
      const res = await quality(order.id, "trader", query);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        order_id: order.id,
        arrival_mid: null,
        arrival_at: null,
        filled: "0.1",
        fill_vwap: "3010",
        slippage_bps: null,
        market_vwap: "3010",
        window_start: new Date(order.created_at).toISOString(),
        window_end: new Date(order.modified_at).toISOString(),
      });
    }
  });

  it("answers an order still open up to now, with nothing filled: no fill VWAP, no slippage", async () => {
    house("SELL", "61000");
    house("BUY", "59000");
    const resting = await d.as.trader.call("POST", ORDERS, btc("BUY", "59500", { time_in_force: "GTC" }));
    expect(resting.status, JSON.stringify(resting.body)).toBe(200);
    await sandboxTurn();
    const res = await quality(resting.body.id, "viewer");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      arrival_mid: "60000",
      filled: "0",
      fill_vwap: null,
      slippage_bps: null,
      market_vwap: null,
    });
    expect(Date.parse(res.body.window_end)).toBeGreaterThanOrEqual(Date.parse(res.body.window_start));
    expect(Date.parse(res.body.window_end)).toBeLessThanOrEqual(d.app.clock.now());
  });

  it("answers a parent order's id with the parent's quality, over all its children", async () => {
    house("SELL", "60010");
    house("BUY", "60000");
    const res = await d.as.trader.call("POST", "/api/parent-orders", {
      ref_id: newRef("twap"),
      profile_id: TRADING,
      market: "BTCUSD",
      side: "BUY",
      base_amount: "0.2",
      strategy: "TWAP",
      duration_seconds: 60,
      slices: 6,
      limit_price: "61000",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.parent_order.id;
    // Its first child sent and filled, then the parent cancelled: its quality stands still.
    await parentsIdle(d.app.runtime);
    await sandboxTurn();
    await parentsIdle(d.app.runtime);
    const cancelled = await d.as.trader.call("POST", `/api/parent-orders/${id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await parentsIdle(d.app.runtime);
    const parent = (await d.as.viewer.call("GET", `/api/parent-orders/${id}`)).body.parent_order;
    const q = await quality(id, "viewer");
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body).toEqual(parent.quality);
    expect(q.body).toMatchObject({ order_id: id, arrival_mid: "60005" });
  });

  it("answers 404 naming an unknown id, 400 for a malformed one, 405 to another method", async () => {
    const unknown = "0190aaaa-0000-7000-8000-000000000000";
    const p = expectProblem(await quality(unknown), 404);
    expect(p.detail).toContain(unknown);
    expectProblem(await quality(unknown, "trader", "?profile_id=" + TRADING), 404);
    expectProblem(await d.as.trader.call("GET", "/api/orders/bad%20id/quality"), 400);
    expectProblem(await quality(unknown, "trader", "?other=1"), 400);
    expect((await d.as.trader.call("POST", `/api/orders/${unknown}/quality`)).status).toBe(405);
  });

  it("writes the quality columns into the orders CSV: the arrival from the journal, blank where unknown", async () => {
    house("SELL", "60300");
    house("BUY", "59700");
    const sent = await d.as.trader.call("POST", ORDERS, btc("BUY", "60300"));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await filled(sent.body.id);
    // Later, from outside the dashboard, into what is left of the same ask.
    d.app.clock.advance(1000);
    const placed = await d.sandbox.call("POST", AT_SERVICE, btc("BUY", "60300"));
    await filled(placed.body.id);

    const mark = d.proxy.requests.length;
    const res = await d.as.viewer.call("GET", "/api/orders/export.csv?market=BTCUSD");
    expect(res.status).toBe(200);
    // One read of the market's recent executions for the whole export, never one per order.
    const reads = d.proxy.requests.slice(mark).filter((r) => r.path.endsWith("/markets/BTCUSD/recent-executions"));
    expect(reads).toHaveLength(1);
    const [header, ...lines] = (res.body as string).trim().split(/\r?\n/);
    const names = header!.split(",");
    expect(names.slice(-4)).toEqual(["arrival_mid", "fill_vwap", "slippage_bps", "market_vwap"]);
    const row = (id: string) => {
      const cells = lines.find((l) => l.startsWith(`${id},`))!.split(",");
      return Object.fromEntries(names.map((n, i) => [n, cells[i]]));
    };
    // Mid 60,000; paid 60,300: 50 bps.
    expect(row(sent.body.id)).toMatchObject({
      arrival_mid: "60000",
      fill_vwap: "60300",
      slippage_bps: "50.00",
      market_vwap: "60300",
    });
    // Every BTCUSD order of this file is in it: far more rows than reads.
    expect(lines.length).toBeGreaterThan(5);
    expect(row(placed.body.id)).toMatchObject({
      arrival_mid: "",
      fill_vwap: "60300",
      slippage_bps: "",
      market_vwap: "60300",
    });
  });
});
