import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addDecimal, compareDecimal } from "@/lib/spec";
import { parentsIdle, scheduleParentsInBackground, stopParentScheduler } from "@/lib/server/parent-orders/scheduler";
import { SETTLE_AFTER_MS } from "@/lib/server/parent-orders/worker";
import {
  eventually,
  expectProblem,
  clearHouseOrders,
  houseOrder,
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
    d = await inProcessDashboard({ database, env: { LOG_LEVEL: "error" } });
  });
  afterAll(async () => {
    await d?.dispose();
  });

  /** The house rests an ask (or a bid) of `size` at `price`: liquidity of another customer's. */
  const house = (side: "BUY" | "SELL", price: string, size: string) =>
    houseOrder(d.app.runtime.sandbox!, side, price, size);

  /** Clears the house's resting BTCUSD orders, so each test sets its own book. */
  const clearBook = () => clearHouseOrders(d.app.runtime.sandbox!);

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

  /** Moves time on, a read-back at a time, until every slice due is sent and settled, and answers the parent. */
  async function settled(id: string) {
    return eventually(
      async () => {
        const p = await get(id);
        const now = d.app.clock.now();
        const due = p.children.some((c: any) => c.status === "SCHEDULED" && Date.parse(c.scheduled_at) <= now);
        const working = p.status === "WORKING" && due;
        if (!working && !p.children.some((c: any) => IN_FLIGHT.includes(c.status))) {
          // Once nothing is in flight, the parent's fill is its children's, exactly: never behind.
          expect(p.children.reduce((sum: string, c: any) => addDecimal(sum, c.amount_filled), "0")).toBe(p.filled_base);
          return p;
        }
        await move(SETTLE_AFTER_MS);
        return undefined;
      },
      10_000,
      "the children in flight to settle",
      // Each look moves the clock itself: no wall-clock pause between looks.
      1,
    );
  }

  /** Moves time on, a read-back at a time, until the parent is COMPLETED, and answers it. */
  const completed = (id: string) =>
    eventually(
      async () => {
        await move(SETTLE_AFTER_MS);
        const p = await get(id);
        return p.status === "COMPLETED" ? p : undefined;
      },
      10_000,
      "the parent to complete",
      1,
    );

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
    const done = await completed(parent.id);
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

  it("carries what a slice left unfilled into the next, and never buys past the cap", async () => {
    // Only 0.05 BTC offered within the cap; the rest above it.
    house("SELL", "60010", "0.05");
    house("SELL", "61500", "5");
    house("BUY", "60000", "1");
    const res = await d.as.trader.call("POST", PARENTS, twap({ base_amount: "0.1", slices: 2, limit_price: "61000" }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const parent = res.body.parent_order;
    const first = await settled(parent.id);
    // Slice 1 asks for its half at the touch and fills it.
    expect(first.children[0]).toMatchObject({
      base_amount: "0.05",
      price: "60010",
      amount_filled: "0.05",
      status: "FILLED",
    });
    await moveTo(parent.children[1].scheduled_at);
    const second = await settled(parent.id);
    // Slice 2: the touch (61,500) is past the cap, so it asks at the cap and nothing fills there.
    expect(second.children[1]).toMatchObject({ base_amount: "0.05", price: "61000", amount_filled: "0" });
    const done = await completed(parent.id);
    expect(done.filled_base).toBe("0.05");
    expect(compareDecimal(done.average_price, "61000")).toBeLessThanOrEqual(0);
  });

  it("a slice that fills part asks the next one for its share plus what is missing, and the total never passes the whole", async () => {
    house("SELL", "60010", "0.02");
    house("BUY", "60000", "1");
    const res = await d.as.trader.call("POST", PARENTS, twap({ base_amount: "0.09", slices: 3 }));
    const parent = res.body.parent_order;
    const first = await settled(parent.id);
    expect(first.children[0]).toMatchObject({ base_amount: "0.03", amount_filled: "0.02", status: "CANCELLED" });
    house("SELL", "60010", "1");
    await moveTo(parent.children[1].scheduled_at);
    const second = await settled(parent.id);
    // Its own 0.03 and the 0.01 slice 1 left.
    expect(second.children[1]).toMatchObject({ base_amount: "0.04", amount_filled: "0.04" });
    await moveTo(parent.children[2].scheduled_at);
    const third = await settled(parent.id);
    expect(third.children[2]).toMatchObject({ base_amount: "0.03", amount_filled: "0.03" });
    expect(third.filled_base).toBe("0.09");
  });

  it("pause sends nothing while paused, and resume moves the rest of the schedule on by the time paused", async () => {
    house("SELL", "60010", "1");
    house("BUY", "60000", "1");
    const parent = (await d.as.trader.call("POST", PARENTS, twap({ slices: 3, duration_seconds: 60 }))).body
      .parent_order;
    await settled(parent.id);
    const paused = await d.as.trader.call("POST", `${PARENTS}/${parent.id}/pause`);
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.parent_order.status).toBe("PAUSED");
    // A second pause, or a resume of a working one, is refused: one move each.
    expectProblem(await d.as.trader.call("POST", `${PARENTS}/${parent.id}/pause`), 409);
    await move(45_000);
    const still = await get(parent.id);
    expect(still.children.filter((c: any) => c.sent_at)).toHaveLength(1);
    expect(still.children.slice(1).map((c: any) => c.status)).toEqual(["SCHEDULED", "SCHEDULED"]);
    const resumed = await d.as.trader.call("POST", `${PARENTS}/${parent.id}/resume`);
    expect(resumed.body.parent_order.status).toBe("WORKING");
    const shifted = resumed.body.parent_order.children;
    expect(Date.parse(shifted[1].scheduled_at) - Date.parse(parent.children[1].scheduled_at)).toBeGreaterThanOrEqual(
      45_000,
    );
    expect(Date.parse(resumed.body.parent_order.ends_at) - Date.parse(parent.ends_at)).toBeGreaterThanOrEqual(45_000);
    expectProblem(await d.as.trader.call("POST", `${PARENTS}/${parent.id}/resume`), 409);
    await moveTo(shifted[1].scheduled_at);
    expect((await settled(parent.id)).children[1].sent_at).not.toBeNull();
    await moveTo(shifted[2].scheduled_at);
    const done = await completed(parent.id);
    expect(done.filled_base).toBe("0.2");
  });

  it("cancel skips what is left, releases the reservation down to what was filled, and only the requester or an admin may act", async () => {
    house("SELL", "60010", "1");
    house("BUY", "60000", "1");
    const parent = (await d.as.trader.call("POST", PARENTS, twap({ slices: 4 }))).body.parent_order;
    await settled(parent.id);
    for (const who of ["viewer", "ops", "approver"] as const) {
      const res = await d.as[who].call("POST", `${PARENTS}/${parent.id}/cancel`);
      expectProblem(res, 403);
    }
    const cancelled = await d.as.admin.call("POST", `${PARENTS}/${parent.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.parent_order.status).toBe("CANCELLED");
    expect(cancelled.body.parent_order.children.map((c: any) => c.status)).toEqual([
      "FILLED",
      "SKIPPED",
      "SKIPPED",
      "SKIPPED",
    ]);
    expectProblem(await d.as.trader.call("POST", `${PARENTS}/${parent.id}/cancel`), 409);
    await move(120_000);
    const after = await get(parent.id);
    expect(after.children.filter((c: any) => c.sent_at)).toHaveLength(1);
    expect(await d.sandboxOrders(`${parent.ref_id}-2`)).toEqual([]);
    const audit = await d.as.admin.call("GET", "/api/audit?event=parent_order.cancelled&limit=50");
    expect(audit.body.items.map((e: any) => e.subject)).toContain(parent.ref_id);
  });

  it("answers a replay of its ref_id with the parent as it stands, and refuses that ref_id for anything else", async () => {
    house("SELL", "60010", "1");
    house("BUY", "60000", "1");
    const body = twap({ limit_price: "60500" });
    const [a, b] = await Promise.all([
      d.as.trader.call("POST", PARENTS, body),
      d.as.trader.call("POST", PARENTS, body),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.parent_order.id).toBe(b.body.parent_order.id);
    expectProblem(await d.as.trader.call("POST", PARENTS, { ...body, base_amount: "0.3" }), 409);
    expectProblem(await d.as.admin.call("POST", PARENTS, body), 409);
    // A plain order may not take the parent's ref_id, nor a child's.
    for (const ref of [body.ref_id, `${body.ref_id}-3`]) {
      const order = { market: "BTCUSD", side: "BUY", type: "LIMIT", price: "100", base_amount: "0.001", ref_id: ref };
      expectProblem(await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, order), 409);
    }
    // A child's ref_id that an order already has refuses the parent before anything is written.
    const taken = newRef("taken");
    const plain = {
      market: "BTCUSD",
      side: "BUY",
      type: "LIMIT",
      price: "100",
      base_amount: "0.001",
      ref_id: `${taken}-2`,
    };
    expect((await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, plain)).status).toBe(200);
    const refused = expectProblem(await d.as.trader.call("POST", PARENTS, twap({ ref_id: taken })), 409);
    expect(refused.detail).toContain(`${taken}-2`);
  });

  it("is weighed whole: the largest order for the role and the daily limit see the parent, not its slices, and four eyes hold it", async () => {
    house("SELL", "60010", "20");
    house("BUY", "60000", "20");
    await setPolicy((p) => ({
      ...p,
      limits: { ...p.limits, max_order_notional_usd: { ...p.limits.max_order_notional_usd, trader: "50000" } },
    }));
    // One slice of 0.1 BTC is ~6,100 USD: under the limit; the whole, 1 BTC at the cap, is not.
    const big = expectProblem(
      await d.as.trader.call("POST", PARENTS, twap({ base_amount: "1", slices: 10, duration_seconds: 100 })),
      403,
    );
    expect(big.meta).toMatchObject({ rule: "max_order_notional_usd", requested: "61000.00" });
    await setPolicy((p) => ({
      ...p,
      limits: {
        ...p.limits,
        max_order_notional_usd: { trader: "1000000", admin: "5000000" },
        daily_order_notional_usd_per_user: "20000",
      },
    }));
    // The daily limit (the admin's, who has asked for nothing yet today): a parent reserves its
    // whole at once, so a second one past the rest is refused before any child.
    const first = await d.as.admin.call("POST", PARENTS, twap({ base_amount: "0.2" }));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = expectProblem(await d.as.admin.call("POST", PARENTS, twap({ base_amount: "0.2" })), 403);
    expect(second.meta).toMatchObject({ rule: "daily_order_notional_usd_per_user", used: "12200.00" });
    // So is a plain order past what is left.
    const order = {
      market: "BTCUSD",
      side: "BUY",
      type: "LIMIT",
      price: "60000",
      base_amount: "0.15",
      ref_id: newRef("o"),
    };
    expectProblem(await d.as.admin.call("POST", `/api/v2/profiles/${TRADING}/orders`, order), 403);
    // Cancelled before any slice filled more than the first: the reservation shrinks to what was filled.
    await settled(first.body.parent_order.id);
    await d.as.admin.call("POST", `${PARENTS}/${first.body.parent_order.id}/cancel`);
    const again = await d.as.admin.call("POST", PARENTS, twap({ base_amount: "0.2" }));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    await d.as.admin.call("POST", `${PARENTS}/${again.body.parent_order.id}/cancel`);
    await setPolicy((p) => ({
      ...p,
      limits: { ...p.limits, daily_order_notional_usd_per_user: "10000000" },
      approval_rules: p.approval_rules.map((r: any) => (r.kind === "order" ? { ...r, threshold_usd: "10000" } : r)),
    }));
    // Four eyes: the whole (12,200 USD) passes the 10,000 rule though each slice would not; nothing is sent until approved.
    const held = await d.as.admin.call("POST", PARENTS, twap());
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    expect(held.body.approval).toMatchObject({ kind: "parent_order", status: "PENDING" });
    expect(compareDecimal(held.body.approval.value_usd, "12200")).toBe(0);
    expect(held.body.parent_order).toMatchObject({ status: "AWAITING_APPROVAL", children: [], started_at: null });
    await move(30_000);
    expect(await d.sandboxOrders(`${held.body.parent_order.ref_id}-1`)).toEqual([]);
    expectProblem(await d.as.admin.call("POST", `/api/approvals/${held.body.approval.id}/approve`), 403);
    const approved = await d.as.approver.call("POST", `/api/approvals/${held.body.approval.id}/approve`);
    expect(approved.body.approval.outcome, JSON.stringify(approved.body)).toMatchObject({ status: 201, sent: true });
    const started = await settled(held.body.parent_order.id);
    expect(started.status).toBe("WORKING");
    expect(started.children[0]).toMatchObject({ status: "FILLED" });
    // A rejected one ends REJECTED and sends nothing.
    const other = await d.as.admin.call("POST", PARENTS, twap());
    expect(other.status).toBe(202);
    await d.as.approver.call("POST", `/api/approvals/${other.body.approval.id}/reject`, { reason: "Not today" });
    const rejected = await get(other.body.parent_order.id);
    expect(rejected.status).toBe("REJECTED");
    await move(70_000);
    expect(await d.sandboxOrders(`${other.body.parent_order.ref_id}-1`)).toEqual([]);
    await d.as.admin.call("POST", `${PARENTS}/${started.id}/cancel`);
    await setPolicy((p) => ({
      ...p,
      approval_rules: p.approval_rules.map((r: any) => (r.kind === "order" ? { ...r, threshold_usd: "100000" } : r)),
    }));
  });

  it("merges the slices missed while nothing could send them into the next one, and sends none of them late", async () => {
    house("SELL", "60010", "1");
    house("BUY", "60000", "1");
    // Down: nothing works the parents (a process killed and not yet back).
    await stopParentScheduler(d.app.runtime);
    const parent = (await d.as.trader.call("POST", PARENTS, twap())).body.parent_order;
    await move(25_000);
    expect((await get(parent.id)).children.every((c: any) => c.status === "SCHEDULED")).toBe(true);
    // Back: slices 1 to 3 fell due while down; one child goes, for the three slices' share.
    scheduleParentsInBackground(d.app.runtime);
    const back = await settled(parent.id);
    expect(back.children.slice(0, 3).map((c: any) => c.status)).toEqual(["MERGED", "MERGED", "FILLED"]);
    expect(back.children[2]).toMatchObject({ base_amount: "0.1", amount_filled: "0.1" });
    for (const c of back.children.slice(0, 2)) expect(await d.sandboxOrders(c.ref_id)).toEqual([]);
    for (const child of back.children.slice(3)) {
      await moveTo(child.scheduled_at);
      await settled(parent.id);
    }
    const done = await completed(parent.id);
    expect(done.filled_base).toBe("0.2");
    expect(done.children.filter((c: any) => c.sent_at)).toHaveLength(4);
  });

  it("sends a child once when its answer is lost on the way back: the retry under its ref_id finds the order made", async () => {
    house("SELL", "60010", "1");
    house("BUY", "60000", "1");
    const creates = { method: "POST", path: `/sandbox/v2/profiles/${TRADING}/orders` };
    d.proxy.fail(creates, { kind: "drop-after" }, 1);
    const before = d.proxy.count(creates);
    const parent = (await d.as.trader.call("POST", PARENTS, twap({ slices: 2 }))).body.parent_order;
    const first = await settled(parent.id);
    // The first attempt reached the service and its answer was dropped; the second found the order.
    expect(d.proxy.count(creates) - before).toBe(2);
    expect(first.children[0]).toMatchObject({ status: "FILLED", amount_filled: "0.1" });
    expect(await d.sandboxOrders(first.children[0].ref_id)).toHaveLength(1);
    await d.as.trader.call("POST", `${PARENTS}/${parent.id}/cancel`);
  });

  it("is for traders and admins: others may read it but not ask for one", async () => {
    for (const who of ["viewer", "ops", "approver"] as const) {
      expectProblem(await d.as[who].call("POST", PARENTS, twap()), 403);
      expect((await d.as[who].call("GET", PARENTS)).status).toBe(200);
    }
  });

  /** Puts `change` into the policy in force, with a second person's approval when it loosens anything. */
  async function setPolicy(change: (p: any) => any) {
    const before = (await d.as.admin.call("GET", "/api/policies")).body.policy;
    const next = change(structuredClone(before));
    const res = await d.as.admin.call("PUT", "/api/policies", next);
    expect([200, 202], JSON.stringify(res.body)).toContain(res.status);
    if (res.status === 202) {
      const approved = await d.as.approver.call("POST", `/api/approvals/${res.body.approval.id}/approve`);
      expect(approved.body.approval.outcome, JSON.stringify(approved.body)).toMatchObject({ status: 200 });
    }
  }
});
