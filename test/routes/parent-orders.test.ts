import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addDecimal, compareDecimal } from "@/lib/spec";
import { MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID } from "@/lib/sandbox/seed";
import { parentsIdle } from "@/lib/server/parent-orders/scheduler";
import { SETTLE_AFTER_MS } from "@/lib/server/parent-orders/worker";
import {
  eventually,
  expectProblem,
  inProcessDashboard,
  newRef,
  sandboxTurn,
  TRADING,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * TWAP parent orders through the route handlers in process, on each database, with the runtime's
 * clock moved rather than waited for: the schedule and its spacing, children at the touch never
 * past the cap, what each slice left unfilled carried to the next, the whole weighed by the
 * controls (largest order, daily limit reserved whole, four eyes), pause, resume, cancel, and
 * every child at the service exactly once. The house's quotes are the sandbox's market maker's
 * customer, so the demo customer's children have someone to trade with.
 */

const PARENTS = "/api/parent-orders";

describe.each<Database>(["sqlite", "postgres"])("parent orders on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await inProcessDashboard({ database });
  });
  afterAll(async () => {
    await d?.dispose();
  });

  /** The house rests an ask (or a bid) of `size` at `price`: liquidity of another customer's. */
  function house(side: "BUY" | "SELL", price: string, size: string) {
    d.app.runtime.sandbox!.run((ex) => {
      ex.submitOrder(MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, {
        market: "BTCUSD",
        type: "LIMIT",
        side,
        price,
        base_amount: size,
      });
      ex.processSubmitted();
    });
  }

  /** Clears the house's resting BTCUSD orders, so each test sets its own book. */
  function clearBook() {
    d.app.runtime.sandbox!.run((ex) => {
      for (const o of [...ex.orders.values()]) {
        if (
          o.profileId === MARKET_MAKER_PROFILE_ID &&
          o.market === "BTCUSD" &&
          ["OPEN", "SUBMITTED"].includes(o.status)
        ) {
          ex.cancelOrder(MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, o.id);
        }
      }
      ex.processSubmitted();
    });
  }

  const twap = (extra: Record<string, unknown> = {}) => ({
    ref_id: newRef("twap"),
    profile_id: TRADING,
    market: "BTCUSD",
    side: "BUY",
    base_amount: "0.2",
    strategy: "TWAP",
    duration_seconds: 60,
    slices: 6,
    limit_price: "61000",
    ...extra,
  });

  /** Moves the clock by `ms` and lets the scheduler and the sandbox run what fell due. */
  async function move(ms: number) {
    d.app.clock.advance(ms);
    await parentsIdle(d.app.runtime);
    await sandboxTurn();
    await parentsIdle(d.app.runtime);
  }

  /** Moves the clock to `iso` (when it is still ahead). */
  const moveTo = (iso: string) => move(Math.max(0, Date.parse(iso) - d.app.clock.now()));

  const get = async (id: string) => (await d.as.trader.call("GET", `${PARENTS}/${id}`)).body.parent_order;

  const IN_FLIGHT = ["SENDING", "SUBMITTED", "OPEN", "PENDING_SUBMISSION"];

  /** Moves time on, a read-back at a time, until no child is in flight, and answers the parent. */
  async function settled(id: string) {
    return eventually(
      async () => {
        const p = await get(id);
        if (!p.children.some((c: any) => IN_FLIGHT.includes(c.status))) return p;
        await move(SETTLE_AFTER_MS);
        return undefined;
      },
      10_000,
      "the children in flight to settle",
    );
  }

  beforeEach(() => clearBook());

  it("refuses a request that breaks a rule, naming the field and the rule, and stores nothing", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ duration_seconds: 59 }, "duration_seconds", /at least 60/],
      [{ duration_seconds: 86_401 }, "duration_seconds", /at most 86,400/],
      [{ slices: 1 }, "slices", /at least 2/],
      [{ slices: 501, duration_seconds: 86_400 }, "slices", /at most 500/],
      [{ slices: 13, duration_seconds: 60 }, "slices", /5 seconds apart: at most 12/],
      [{ limit_price: "60000.10" }, "limit_price", /multiple of 0.25/],
      [{ limit_price: undefined }, "limit_price", /required/],
      [{ strategy: "VWAP" }, "strategy", /TWAP/],
      [{ base_amount: "0.00000005", slices: 6 }, "base_amount", /each of the 6 slices/],
      [{ base_amount: "0.000000001" }, "base_amount", /8 decimal places/],
    ];
    for (const [change, field, rule] of cases) {
      const body = twap(change);
      const res = await d.as.trader.call("POST", PARENTS, body);
      const p = expectProblem(res, 400);
      expect(JSON.stringify(p), field).toContain(field);
      expect(p.detail + JSON.stringify(p.meta), field).toMatch(rule);
    }
    const list = await d.as.trader.call("GET", PARENTS);
    expect(list.body.items).toEqual([]);
  });

  it("works 0.2 BTC over 60 s in 6 slices 10 s apart: each child at the touch, never past the cap, filling exactly the whole", async () => {
    house("SELL", "60010", "1");
    house("BUY", "60000", "1");
    const res = await d.as.trader.call("POST", PARENTS, twap());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const parent = res.body.parent_order;
    expect(parent).toMatchObject({ status: "WORKING", slices: 6, base_amount: "0.2", filled_base: "0" });
    const due = parent.children.map((c: any) => Date.parse(c.scheduled_at));
    expect(due.slice(1).map((t: number, i: number) => t - due[i])).toEqual([10_000, 10_000, 10_000, 10_000, 10_000]);
    expect(Date.parse(parent.ends_at) - Date.parse(parent.started_at)).toBe(60_000);
    expect(parent.quality.arrival_mid).toBe("60005");
    expect(parent.children.every((c: any) => c.status === "SCHEDULED")).toBe(true);

    for (const child of parent.children) {
      await moveTo(child.scheduled_at);
      const p = await settled(parent.id);
      expect(p.children.filter((c: any) => c.sent_at).length, `slice ${child.n}`).toBe(child.n);
    }
    const done = await eventually(async () => {
      await move(SETTLE_AFTER_MS);
      const p = await get(parent.id);
      return p.status === "COMPLETED" ? p : undefined;
    });
    const sent = done.children.map((c: any) => Date.parse(c.sent_at));
    for (let i = 1; i < sent.length; i++) expect(Math.abs(sent[i] - sent[i - 1] - 10_000)).toBeLessThanOrEqual(2000);
    const filled = done.children.reduce((s: string, c: any) => addDecimal(s, c.amount_filled), "0");
    expect(filled).toBe(done.filled_base);
    expect(done.filled_base).toBe("0.2");
    for (const c of done.children) {
      expect(c).toMatchObject({ status: "FILLED", base_amount: expect.any(String), price: "60010" });
      expect(compareDecimal(c.average_price, "61000")).toBeLessThanOrEqual(0);
    }
    expect(done.average_price).toBe("60010");
    expect(done.quality).toMatchObject({ filled: "0.2", fill_vwap: "60010", slippage_bps: "0.83" });
    const atService = await d.sandboxOrders(`${done.ref_id}-1`);
    expect(atService).toHaveLength(1);
    for (const c of done.children) expect(await d.sandboxOrders(c.ref_id)).toHaveLength(1);
  });
});
