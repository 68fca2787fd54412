import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectProblem,
  inProcessDashboard,
  quote,
  newRef,
  SETTLEMENT,
  TRADING,
  TREASURY,
  type Dashboard,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * Issue 27, segregation of duties: an order whose recipient_profile_id names another profile
 * moves money between profiles, so it is weighed as the transfer it also is. It needs the right
 * to transfer, and its value counts toward the transfer limits and approval rules as well as the
 * order's. Each attack as a trader (who may not transfer) or an admin (who may trade and
 * transfer) would try it: naming another profile, splitting the move into orders under the
 * transfer threshold, mixing such orders with transfers, and keeping the role meanwhile.
 */

const ORDERS = `/api/v2/profiles/${TRADING}/orders`;
const TRANSFERS = "/api/v2/transfer/internal";
/** A profile id that names nothing at the service. */
const NOWHERE = randomUUID();
const USD = (value: string) => new RegExp(`^${value}(\\.0+)?$`);

/**
 * A sell of `base` BTC from Trading limited at the mid of 65,000: it rests, worth `base` × 65,000
 * USD (0.5 BTC is 32,500 USD), settling into `recipient` when given.
 */
const sell = (base: string, recipient?: string, ref = newRef("sell")) => ({
  market: "BTCUSD",
  side: "SELL",
  type: "LIMIT",
  price: "65000.00",
  base_amount: base,
  ref_id: ref,
  metadata: { test: ref.slice(0, 100) },
  ...(recipient !== undefined && { recipient_profile_id: recipient }),
});

const transfer = (amount: string, ref = newRef("t")) => ({
  from_profile_id: TREASURY,
  to_profile_id: SETTLEMENT,
  asset: "USD",
  amount,
  ref_id: ref,
  metadata: { test: ref.slice(0, 100) },
});

/** A dashboard of its own (its people's totals are the test's alone), BTCUSD quoted 64,000 / 66,000. */
async function desk(): Promise<InProcessDashboard> {
  const d = await inProcessDashboard();
  await quote(d, "BTCUSD", "64000.00", "66000.00");
  return d;
}

async function audited(d: Dashboard, event: string): Promise<{ subject: string; detail: Record<string, any> }[]> {
  const res = await d.as.admin.call("GET", `/api/audit?event=${event}&limit=200`);
  expect(res.status).toBe(200);
  return res.body.items;
}

/** Tightens the policy in force as an admin would (applied at once: it loosens nothing). */
async function tighten(d: Dashboard, change: (p: any) => any) {
  const before = (await d.as.admin.call("GET", "/api/policies")).body.policy;
  const res = await d.as.admin.call("PUT", "/api/policies", change(structuredClone(before)));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("the right to transfer", () => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await desk();
  });
  afterAll(() => d?.dispose());

  it("refuses a trader's order settling into another profile, on recipient_profile_id, before anything reaches the service", async () => {
    const body = sell("0.5", SETTLEMENT);
    const mark = d.proxy.requests.length;
    const res = await d.as.trader.call("POST", ORDERS, body);
    const problem = expectProblem(res, 403);
    expect(problem.detail).toMatch(/^recipient_profile_id: An order that settles into another profile/);
    expect(problem.detail).toContain("the trader role may not make transfers (only ops and admin may)");
    expect(problem.meta).toMatchObject({
      role: "trader",
      action: "transfers:create",
      errors: [{ field: "recipient_profile_id", message: expect.stringContaining("may not make transfers") }],
    });
    const reached = d.proxy.requests.slice(mark).filter((r) => !r.path.endsWith("/oauth2/token"));
    expect(reached).toEqual([]);
    expect(await d.journal(body.ref_id)).toEqual([]);
    expect(await d.sandboxOrders(body.ref_id)).toEqual([]);
    const refused = (await audited(d, "create.refused")).find((e) => e.subject === body.ref_id);
    expect(refused?.detail).toMatchObject({
      weighed_as_transfer: { recipient_profile_id: SETTLEMENT },
      problem: { status: 403 },
    });
  });

  it("sends a trader's order settling into its own profile, or naming no recipient, as any order", async () => {
    for (const body of [sell("0.5", TRADING), sell("0.5")]) {
      const res = await d.as.trader.call("POST", ORDERS, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await d.sandboxOrders(body.ref_id)).toHaveLength(1);
      const requested = (await audited(d, "create.requested")).find((e) => e.subject === body.ref_id);
      expect(requested?.detail.value_usd).toMatch(USD("32500"));
      expect(requested?.detail).not.toHaveProperty("weighed_as_transfer");
    }
  });

  it("refuses, never holds, an order settling into a profile the service does not know, on recipient_profile_id", async () => {
    // 32,500 USD is past the transfer rule: the funds and profiles are read before it would be held.
    const body = sell("0.5", NOWHERE);
    const problem = expectProblem(await d.as.admin.call("POST", ORDERS, body), 404);
    expect(problem.meta).toMatchObject({ profile_id: NOWHERE, errors: [{ field: "recipient_profile_id" }] });
    const pending = (await d.as.viewer.call("GET", "/api/approvals?status=PENDING")).body.items;
    expect(pending.map((a: { request: { ref_id: string } }) => a.request.ref_id)).not.toContain(body.ref_id);
    expect(await d.sandboxOrders(body.ref_id)).toEqual([]);
  });
});

describe("an admin's order settling into another profile", () => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await desk();
  });
  afterAll(() => d?.dispose());

  it("is held at the transfer rule's 10,000 USD, though under the order rule's 100,000 USD; the request stays an order", async () => {
    const body = sell("0.5", SETTLEMENT);
    const res = await d.as.admin.call("POST", ORDERS, body);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.approval).toMatchObject({
      kind: "order",
      status: "PENDING",
      profile_id: TRADING,
      request: { recipient_profile_id: SETTLEMENT },
      rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1 },
      approvals_needed: 1,
    });
    expect(res.body.approval.value_usd).toMatch(USD("32500"));
    expect(res.body.approval.hold_reason).toBe(
      "It settles into another profile, so it moves money as a transfer does and is weighed as one too; the transfer rule holds it",
    );
    expect(await d.sandboxOrders(body.ref_id)).toEqual([]);
    const requested = (await audited(d, "approval.requested")).find((e) => e.subject === res.body.approval.id);
    expect(requested?.detail).toMatchObject({
      kind: "order",
      weighed_as_transfer: { recipient_profile_id: SETTLEMENT },
      rule: { kind: "transfer" },
    });
    // The approver reads the requester's transfers beside it: what the send is checked against too.
    const context = await d.as.approver.call("GET", `/api/approvals/${res.body.approval.id}/context`);
    expect(context.body.requester).toMatchObject({ kind: "order" });
    expect(context.body.requester_transfers).toMatchObject({ kind: "transfer", daily_limit_usd: "1000000" });
  });

  it("is sent once approved, and audited as weighed as a transfer too", async () => {
    const body = sell("0.5", SETTLEMENT);
    const held = await d.as.admin.call("POST", ORDERS, body);
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    const approved = await d.as.approver.call("POST", `/api/approvals/${held.body.approval.id}/approve`);
    expect(approved.body.approval.outcome, JSON.stringify(approved.body)).toMatchObject({ status: 200 });
    expect(await d.sandboxOrders(body.ref_id)).toHaveLength(1);
    const requested = (await audited(d, "create.requested")).find((e) => e.subject === body.ref_id);
    expect(requested?.detail).toMatchObject({
      weighed_as_transfer: { recipient_profile_id: SETTLEMENT },
      approval_id: held.body.approval.id,
    });
  });
});

describe("splitting a move between profiles", () => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await desk();
  });
  afterAll(() => d?.dispose());

  it("holds the second of two 6,500 USD orders settling into another profile: the transfer rule weighs the rolling total", async () => {
    const first = await d.as.admin.call("POST", ORDERS, sell("0.1", SETTLEMENT));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await d.as.admin.call("POST", ORDERS, sell("0.1", SETTLEMENT));
    expect(second.status, JSON.stringify(second.body)).toBe(202);
    expect(second.body.approval).toMatchObject({ kind: "order", rule: { kind: "transfer", threshold_usd: "10000" } });
    expect(second.body.approval.hold_reason).toContain("the transfer rule holds it");
    expect(second.body.approval.hold_reason).toContain(
      "the transfers you sent without approval in the last 24 h, orders that settled into another profile included, come to 13,000.00 USD, past the 10,000.00 USD rule",
    );
  });

  it("counts those orders toward a later transfer, and a transfer toward a later such order", async () => {
    // 6,500 USD sent by the order above, without approval: a 4,000 USD transfer brings it to 10,500.
    const after = await d.as.admin.call("POST", TRANSFERS, transfer("4000"));
    expect(after.status, JSON.stringify(after.body)).toBe(202);
    expect(after.body.approval.hold_reason).toContain("come to 10,500.00 USD, past the 10,000.00 USD rule");
    // An order settling into its own profile counts as an order only: sent, the transfers untouched.
    expect((await d.as.admin.call("POST", ORDERS, sell("0.1", TRADING))).status).toBe(200);
    // 3,000 USD of transfers more (9,500 in all), then a 1,300 USD order into another profile: 10,800.
    expect((await d.as.admin.call("POST", TRANSFERS, transfer("3000"))).status).toBe(200);
    const small = await d.as.admin.call("POST", ORDERS, sell("0.02", SETTLEMENT));
    expect(small.status, JSON.stringify(small.body)).toBe(202);
    expect(small.body.approval.rule).toMatchObject({ kind: "transfer", threshold_usd: "10000" });
  });
});

describe("the daily transfer limit", () => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await desk();
    await tighten(d, (p) => ({ ...p, limits: { ...p.limits, daily_transfer_usd_per_user: "50000" } }));
  });
  afterAll(() => d?.dispose());

  it("counts an order settling into another profile, and refuses the one that would pass it", async () => {
    // 32,500 USD waiting for approval: a reservation on the day's transfers.
    const held = await d.as.admin.call("POST", ORDERS, sell("0.5", SETTLEMENT));
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    const over = await d.as.admin.call("POST", TRANSFERS, transfer("20000"));
    expect(expectProblem(over, 403).meta).toMatchObject({
      rule: "daily_transfer_usd_per_user",
      limit: "50000",
      used: "32500.00",
      requested: "20000.00",
    });
    // The other way round: 32,500 + 20,000 more, as an order into another profile, is refused on the transfer limit.
    const order = sell("0.30770", SETTLEMENT);
    const refused = expectProblem(await d.as.admin.call("POST", ORDERS, order), 403);
    expect(refused.meta).toMatchObject({ rule: "daily_transfer_usd_per_user", used: "32500.00" });
    expect(refused.detail).toContain("An order that settles into another profile counts as a transfer.");
    const limited = (await audited(d, "limit.refused")).find((e) => e.subject === order.ref_id);
    expect(limited?.detail).toMatchObject({ weighed_as_transfer: { recipient_profile_id: SETTLEMENT } });
    // The same order settling into its own profile meets only the order limits.
    expect((await d.as.admin.call("POST", ORDERS, sell("0.30770", TRADING))).status).toBe(200);
  });
});

describe("the dry run", () => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await desk();
  });
  afterAll(() => d?.dispose());

  const preview = (who: "trader" | "admin", request: unknown) =>
    d.as[who].call("POST", "/api/orders/preview", { profile_id: TRADING, request });

  it("tells the trader the desk will refuse it, on recipient_profile_id; their own profile is sent at once", async () => {
    const refused = await preview("trader", sell("0.5", SETTLEMENT));
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    expect(refused.body).toMatchObject({
      outcome: "refuse",
      weighed_as_transfer: true,
      problem: { status: 403, meta: { action: "transfers:create", errors: [{ field: "recipient_profile_id" }] } },
    });
    const own = await preview("trader", sell("0.5", TRADING));
    expect(own.body).toMatchObject({ outcome: "send", weighed_as_transfer: false });
  });

  it("tells the admin the transfer rule will hold it, with the rolling total, and the create agrees", async () => {
    const body = sell("0.5", SETTLEMENT);
    const told = await preview("admin", body);
    expect(told.body).toMatchObject({
      outcome: "hold",
      kind: "order",
      weighed_as_transfer: true,
      hold: { rule: { kind: "transfer", threshold_usd: "10000" }, reason: expect.stringContaining("transfer rule") },
    });
    expect(told.body.hold.rolling_total_usd).toMatch(USD("32500"));
    expect(await d.journal(body.ref_id)).toEqual([]);
    expect((await d.as.admin.call("POST", ORDERS, body)).status).toBe(202);
  });
});

describe("checked again at send", () => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await desk();
  });
  afterAll(() => d?.dispose());

  it("does not send an approved order settling into another profile once its requester may no longer transfer", async () => {
    const body = sell("0.5", SETTLEMENT);
    const held = await d.as.admin.call("POST", ORDERS, body);
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    // The admin signs in again as a trader a second later: they may still trade, no longer transfer.
    d.app.clock.advance(1000);
    await d.app.runtime.sessions.start({
      email: "admin@example.com",
      role: "trader",
      provider: "credentials",
      ip: null,
    });
    const approved = await d.as.approver.call("POST", `/api/approvals/${held.body.approval.id}/approve`);
    expect(approved.body.approval).toMatchObject({
      status: "APPROVED",
      outcome: {
        status: 403,
        sent: false,
        body: { meta: { role: "trader", action: "transfers:create", errors: [{ field: "recipient_profile_id" }] } },
      },
    });
    expect(await d.sandboxOrders(body.ref_id)).toEqual([]);
    const refused = (await audited(d, "approval.send_refused")).find((e) => e.subject === held.body.approval.id);
    expect(refused?.detail).toMatchObject({ weighed_as_transfer: { recipient_profile_id: SETTLEMENT } });
  });
});
