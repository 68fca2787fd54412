import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parentsIdle } from "@/lib/server/parent-orders/scheduler";
import type { ApprovalContext } from "@/lib/shared/approval-context";
import { addDecimal, compareDecimal, multiplyDecimal } from "@/lib/spec";
import {
  expectProblem,
  clearHouseOrders,
  houseOrder,
  inProcessDashboard,
  newRef,
  sandboxTurn,
  TRADING,
  type Client,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * A TWAP parent order held for four eyes (approval kind "parent_order"), through the route
 * handlers in process on each database: the approver's context card reads it as one order of its
 * whole at its cap (the market, the funds at the cap, the requester's orders, this one left out),
 * nobody approves their own, approving starts it (WORKING, its children SCHEDULED, then sent one
 * slice at a time), and rejecting or withdrawing ends it with nothing at the service. The policy
 * holds it by a lowered order threshold: a tightening, applied at once.
 */

const PARENTS = "/api/parent-orders";
const THRESHOLD_USD = "1000";

describe.each<Database>(["sqlite", "postgres"])("a parent order's approval on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await inProcessDashboard({ database });
    const before = (await d.as.admin.call("GET", "/api/policies")).body.policy;
    const next = {
      ...before,
      approval_rules: before.approval_rules.map((r: { kind: string }) =>
        r.kind === "order" ? { ...r, threshold_usd: THRESHOLD_USD } : r,
      ),
    };
    const res = await d.as.admin.call("PUT", "/api/policies", next);
    // A lower threshold tightens the controls: applied at once, no approval.
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
  afterAll(async () => {
    await d?.dispose();
  });

  /** The house rests an ask (or a bid) of `size` at `price`: liquidity of another customer's. */
  const house = (side: "BUY" | "SELL", price: string, size: string) =>
    houseOrder(d.app.runtime.sandbox!, side, price, size);

  /** Clears the house's resting BTCUSD orders, then quotes 60,000 / 60,010: the mid 60,005. */
  beforeEach(() => {
    clearHouseOrders(d.app.runtime.sandbox!);
    house("SELL", "60010", "1");
    house("BUY", "60000", "1");
  });

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

  /** A parent asked by `who`, held for approval (202): its approval and the parent. */
  async function held(who: Client, extra: Record<string, unknown> = {}) {
    const body = twap(extra);
    const res = await who.call("POST", PARENTS, body);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return { body, approval: res.body.approval, parent: res.body.parent_order };
  }

  const parentOf = async (id: string) => (await d.as.trader.call("GET", `${PARENTS}/${id}`)).body.parent_order;
  const contextOf = async (approvalId: string): Promise<ApprovalContext> => {
    const res = await d.as.approver.call("GET", `/api/approvals/${approvalId}/context`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  /** Moves the clock by `ms` and lets the scheduler and the sandbox run what fell due. */
  async function move(ms: number) {
    d.app.clock.advance(ms);
    await parentsIdle(d.app.runtime);
    await sandboxTurn();
    await parentsIdle(d.app.runtime);
  }

  /** None of the parent's children's ref_ids is at the service. */
  async function nothingAtService(refId: string, slices: number) {
    for (let n = 1; n <= slices; n++) expect(await d.sandboxOrders(`${refId}-${n}`), `${refId}-${n}`).toEqual([]);
  }

  it("holds the whole parent as kind parent_order, valued at the larger of its cap and the mid", async () => {
    const { body, approval, parent } = await held(d.as.trader);
    expect(approval).toMatchObject({
      kind: "parent_order",
      status: "PENDING",
      profile_id: TRADING,
      requested_by: "trader@example.com",
      rule: { kind: "order", threshold_usd: THRESHOLD_USD },
      request: { ...body, parent_order_id: parent.id },
    });
    // 0.2 BTC at the cap, 61,000, above the mid of 60,005.
    expect(compareDecimal(approval.value_usd, "12200")).toBe(0);
    expect(parent).toMatchObject({ status: "AWAITING_APPROVAL", approval_id: approval.id });
    const read = await d.as.viewer.call("GET", `/api/approvals/${approval.id}`);
    expect(read.body.approval).toMatchObject({ kind: "parent_order", request: { parent_order_id: parent.id } });
    const listed = await d.as.approver.call("GET", "/api/approvals?status=PENDING");
    expect(listed.body.items.find((a: { id: string }) => a.id === approval.id)).toMatchObject({ kind: "parent_order" });
  });

  it("gives the approver an order's context: the funds at the cap, the requester's orders with this parent left out", async () => {
    const a = await held(d.as.trader);
    const b = await held(d.as.trader, { side: "BUY", base_amount: "0.1", limit_price: "60500" });
    const [ca, cb] = [await contextOf(a.approval.id), await contextOf(b.approval.id)];
    // What it would spend were it all to fill at the cap, beside what Trading has in USD now.
    expect(ca.spend).toMatchObject({ profile_id: TRADING, asset: "USD", available: expect.any(String) });
    expect(compareDecimal(ca.spend!.amount, multiplyDecimal("0.2", "61000"))).toBe(0);
    expect(compareDecimal(cb.spend!.amount, multiplyDecimal("0.1", "60500"))).toBe(0);
    expect(ca.requester).toMatchObject({
      email: "trader@example.com",
      kind: "order",
      daily_limit_usd: expect.any(String),
      max_order_usd: expect.any(String),
    });
    expect(ca.batch_funds).toBeUndefined();
    // Each parent's reservation counts in the other's day, never in its own: with the rest of the
    // day X, A's card says X + B and B's says X + A.
    const [dayA, dayB] = [ca.requester!.today_usd, cb.requester!.today_usd];
    expect(compareDecimal(addDecimal(dayA, a.approval.value_usd), addDecimal(dayB, b.approval.value_usd))).toBe(0);
    expect(compareDecimal(dayA, b.approval.value_usd)).toBeGreaterThanOrEqual(0);
    expect(compareDecimal(dayA, dayB)).not.toBe(0);

    // A sell spends its base amount, whatever the cap.
    const sell = await held(d.as.trader, { side: "SELL", limit_price: "59000" });
    expect((await contextOf(sell.approval.id)).spend).toMatchObject({
      profile_id: TRADING,
      asset: "BTC",
      amount: "0.2",
    });

    // Approvers only.
    expectProblem(await d.as.trader.call("GET", `/api/approvals/${a.approval.id}/context`), 403);
  });

  it("lets nobody approve their own: an admin's parent waits for someone else", async () => {
    const { approval, parent } = await held(d.as.admin);
    expectProblem(await d.as.admin.call("POST", `/api/approvals/${approval.id}/approve`), 403);
    const mine = await held(d.as.trader);
    // A trader may not approve at all.
    expectProblem(await d.as.trader.call("POST", `/api/approvals/${mine.approval.id}/approve`), 403);
    expect((await parentOf(parent.id)).status).toBe("AWAITING_APPROVAL");
    expect((await d.as.viewer.call("GET", `/api/approvals/${approval.id}`)).body.approval.status).toBe("PENDING");
    const refusals = await d.as.admin.call("GET", "/api/audit?event=approval.self_refused&limit=200");
    expect(refusals.body.items.map((e: { subject: string }) => e.subject)).toContain(approval.id);
  });

  it("starts it when approved: WORKING, its children scheduled, then sent one slice at a time", async () => {
    const { body, approval, parent } = await held(d.as.trader);
    await nothingAtService(body.ref_id, body.slices);
    const res = await d.as.approver.call("POST", `/api/approvals/${approval.id}/approve`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.approval).toMatchObject({
      kind: "parent_order",
      status: "APPROVED",
      outcome: { status: 201, sent: true, body: { parent_order: { id: parent.id, status: "WORKING" } } },
    });
    const started = await parentOf(parent.id);
    expect(started.status).toBe("WORKING");
    expect(started.started_at).not.toBeNull();
    // Slice 1 is due as it starts (the scheduler may have sent it already); the rest wait their turn.
    expect(started.children.map((c: { n: number }) => c.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(started.children.slice(1).every((c: { status: string }) => c.status === "SCHEDULED")).toBe(true);
    const due = started.children.map((c: { scheduled_at: string }) => Date.parse(c.scheduled_at));
    expect(due.slice(1).map((t: number, i: number) => t - due[i]!)).toEqual([10_000, 10_000, 10_000, 10_000, 10_000]);

    await move(0);
    expect(await d.sandboxOrders(`${body.ref_id}-1`)).toHaveLength(1);
    expect(await d.sandboxOrders(`${body.ref_id}-2`)).toEqual([]);
    await move(due[1]! - d.app.clock.now());
    expect(await d.sandboxOrders(`${body.ref_id}-2`)).toHaveLength(1);
    expect(await d.sandboxOrders(`${body.ref_id}-3`)).toEqual([]);
  });

  it("ends it REJECTED when rejected, and WITHDRAWN ends it CANCELLED: nothing at the service either way", async () => {
    const rejected = await held(d.as.trader);
    const res = await d.as.approver.call("POST", `/api/approvals/${rejected.approval.id}/reject`, {
      reason: "Too large for today",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.approval).toMatchObject({ status: "REJECTED", reason: "Too large for today", outcome: null });
    const withdrawn = await held(d.as.trader);
    expect((await d.as.trader.call("POST", `/api/approvals/${withdrawn.approval.id}/withdraw`)).status).toBe(200);

    await move(2 * 60_000);
    const r = await parentOf(rejected.parent.id);
    expect(r.status).toBe("REJECTED");
    expect(r.children.every((c: { sent_at: string | null }) => c.sent_at === null)).toBe(true);
    expect((await parentOf(withdrawn.parent.id)).status).toBe("CANCELLED");
    await nothingAtService(rejected.body.ref_id, rejected.body.slices);
    await nothingAtService(withdrawn.body.ref_id, withdrawn.body.slices);
    // Decided once: a late approval finds nothing to start.
    expectProblem(await d.as.approver.call("POST", `/api/approvals/${rejected.approval.id}/approve`), 409);
  });
});
