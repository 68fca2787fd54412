import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileId } from "@/lib/sandbox/seed";
import {
  expectProblem,
  inProcessDashboard,
  quote,
  newRef,
  SETTLEMENT,
  TRADING,
  TREASURY,
  type Client,
  type Dashboard,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * Issue 16's attacks on the desk's controls, against the route handlers called in process with
 * the demo users, each written as someone holding a trader's, an ops or an admin login would try it:
 * a failed create's ref_id reused, a sell valued at its own price, a transfer split under the
 * threshold, parallel orders past the daily limit, approved orders left out of it, a forged
 * "Don't send", an approval sent without a second look, four eyes switched off by one admin,
 * a request held that the service will surely refuse, and a price guard that weighs the wrong
 * price or lets an order through when it cannot read one.
 */

const ORDERS = `/api/v2/profiles/${TRADING}/orders`;
const TRANSFERS = "/api/v2/transfer/internal";
/** A profile id that names nothing at the service. */
const NOWHERE = randomUUID();
const RESERVE = profileId("operations-reserve");

/** A limit buy on `market`, its own request by its metadata (the back end asks about a repeat otherwise). */
const buy = (market: string, price: string, base: string, ref = newRef("buy")) => ({
  market,
  side: "BUY",
  type: "LIMIT",
  price,
  base_amount: base,
  ref_id: ref,
  metadata: { test: ref.slice(0, 100) },
});

const transfer = (amount: string, ref = newRef("t"), extra: Record<string, unknown> = {}) => ({
  from_profile_id: TREASURY,
  to_profile_id: SETTLEMENT,
  asset: "USD",
  amount,
  ref_id: ref,
  metadata: { test: ref.slice(0, 100) },
  ...extra,
});

/**
 * Puts `change` into the policy in force as an admin would, with a second person's approval when
 * it loosens anything (202); the policy in force afterwards is the one asked for.
 */
async function setPolicy(d: Dashboard, change: (p: any) => any) {
  const before = (await d.as.admin.call("GET", "/api/policies")).body.policy;
  const next = change(structuredClone(before));
  const res = await d.as.admin.call("PUT", "/api/policies", next);
  expect([200, 202], JSON.stringify(res.body)).toContain(res.status);
  if (res.status === 202) {
    const approved = await d.as.approver.call("POST", `/api/approvals/${res.body.approval.id}/approve`);
    expect(approved.body.approval.outcome, JSON.stringify(approved.body)).toMatchObject({ status: 200 });
  }
  expect((await d.as.viewer.call("GET", "/api/policies")).body.policy).toEqual(next);
}

async function audited(d: Dashboard, event: string): Promise<{ subject: string; actor_email: string }[]> {
  const res = await d.as.admin.call("GET", `/api/audit?event=${event}&limit=200`);
  expect(res.status).toBe(200);
  return res.body.items;
}

const approveAs = (who: Client, id: string) => who.call("POST", `/api/approvals/${id}/approve`);

describe("a ref_id is one request, forever", () => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    // A runtime of its own: changes the policy everyone reads.
    d = await inProcessDashboard();
  });
  afterAll(() => d?.dispose());

  it("refuses a 150,000 USD order under a failed order's ref_id (anyone's), and sends nothing", async () => {
    const ref = newRef("failed-order");
    const failed = await d.as.trader.call(
      "POST",
      `/api/v2/profiles/${NOWHERE}/orders`,
      buy("ETHUSD", "100.00", "0.01", ref),
    );
    expect(failed.status).toBe(404);
    expect(await d.journal(ref)).toEqual([expect.objectContaining({ status: "failed" })]);

    const bigger = buy("ETHUSD", "100.00", "1500", ref);
    const problem = expectProblem(await d.as.trader.call("POST", ORDERS, bigger), 409);
    expect(problem.meta).toMatchObject({ ref_id: ref, errors: [{ field: "ref_id" }] });
    expectProblem(await d.as.admin.call("POST", ORDERS, bigger), 409);
    expectProblem(
      await d.as.admin.call("POST", `/api/v2/profiles/${NOWHERE}/orders`, buy("ETHUSD", "100.00", "0.01", ref)),
      409,
    );
    expect(await d.sandboxOrders(ref)).toEqual([]);
    expect(await d.journal(ref)).toEqual([
      expect.objectContaining({ status: "failed", user_email: "trader@example.com" }),
    ]);
  });

  it("refuses a 20,000 USD transfer under a failed 1 USD transfer's ref_id, and sends nothing", async () => {
    const ref = newRef("failed-transfer");
    const small = transfer("1", ref, { to_profile_id: NOWHERE });
    expect((await d.as.ops.call("POST", TRANSFERS, small)).status).toBe(404);
    expectProblem(
      await d.as.ops.call("POST", TRANSFERS, { ...small, to_profile_id: SETTLEMENT, amount: "20000" }),
      409,
    );
    expectProblem(await d.as.ops.call("POST", TRANSFERS, { ...small, amount: "20000" }), 409);
    expectProblem(await d.as.admin.call("POST", TRANSFERS, { ...small, to_profile_id: SETTLEMENT }), 409);
    expect(await d.sandboxTransfers(ref)).toEqual([]);
    expect(
      (await d.as.viewer.call("GET", "/api/approvals")).body.items.map((a: any) => a.request.ref_id),
    ).not.toContain(ref);
  });
});

describe("valuing and splitting", () => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    // A runtime of its own: faults in front of its sandbox.
    d = await inProcessDashboard();
    // BTCUSD at 64,000 / 66,000: a mid of 65,000.
    await quote(d, "BTCUSD", "64000.00", "66000.00");
  });
  afterAll(() => d?.dispose());

  it("values a SELL STOP_LIMIT of 5 BTC limited at 0.25 at the mid, and holds it for approval", async () => {
    const ref = newRef("stop");
    const stop = {
      market: "BTCUSD",
      side: "SELL",
      type: "STOP_LIMIT",
      stop_price: "90000.00",
      price: "0.25",
      base_amount: "5",
      ref_id: ref,
    };
    // Its stop is already reached, so it would take at once at 0.25: the guard asks first.
    expectProblem(await d.as.trader.call("POST", ORDERS, stop), 428);
    const res = await d.as.trader.call("POST", ORDERS, stop, { "Confirm-Price-Guard": "BTCUSD" });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(Number(res.body.approval.value_usd)).toBeGreaterThanOrEqual(325_000);
    expect(await d.sandboxOrders(ref)).toEqual([]);
  });

  it("holds the second of fifty 9,999 USD transfers: the threshold weighs the rolling 24 h total", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 50; i++) answers.push((await d.as.ops.call("POST", TRANSFERS, transfer("9999"))).status);
    expect(answers[0]).toBe(200);
    expect(answers.slice(1)).toEqual(Array(49).fill(202));
  });

  it("refuses at once, never holds, a transfer over the balance or to a profile that does not exist", async () => {
    // The operations reserve holds 2 BTC; 3 BTC (about 195,000 USD) is within every limit but past its balance.
    const over = await d.as.admin.call(
      "POST",
      TRANSFERS,
      transfer("3", newRef("over"), { from_profile_id: RESERVE, asset: "BTC" }),
    );
    const funds = expectProblem(over, 403);
    expect(funds.meta).toMatchObject({ profile_id: RESERVE, asset: "BTC", available: "2", needed: "3" });
    const lost = await d.as.admin.call(
      "POST",
      TRANSFERS,
      transfer("20000", newRef("lost"), { to_profile_id: NOWHERE }),
    );
    expect(expectProblem(lost, 404).meta).toMatchObject({ profile_id: NOWHERE });
    const pending = (await d.as.viewer.call("GET", "/api/approvals?status=PENDING")).body.items;
    expect(pending.filter((a: any) => a.requested_by === "admin@example.com")).toEqual([]);
  });

  it("asks about a BUY LIMIT 20% above the mid that the best ask fills, and audits the question", async () => {
    const ref = newRef("above");
    const res = await d.as.trader.call("POST", ORDERS, buy("BTCUSD", "78000.00", "0.01", ref));
    const guard = expectProblem(res, 428);
    expect(guard.meta).toMatchObject({ market: "BTCUSD", price: "78000.00", deviation_percent: "20.00" });
    expect(await d.sandboxOrders(ref)).toEqual([]);
    expect((await audited(d, "price_guard.confirm_asked")).map((e) => e.subject)).toContain(ref);
  });

  it("fails closed: a ticker or a book it cannot read is a 503, and nothing is sent", async () => {
    const ref = newRef("blind");
    d.proxy.fail({ method: "GET", path: "/sandbox/v2/markets/BTCUSD/ticker" }, { kind: "status", status: 503 }, 10);
    const blind = await d.as.trader.call("POST", ORDERS, buy("BTCUSD", "60000.00", "0.01", ref));
    expect(expectProblem(blind, 503).title).toBe("Price Unavailable");
    d.proxy.clearFaults();
    d.proxy.fail({ method: "GET", path: "/sandbox/v2/markets/BTCUSD/order-book" }, { kind: "status", status: 503 }, 10);
    const market = { market: "BTCUSD", side: "BUY", type: "MARKET", quote_amount: "100.00", ref_id: newRef("blind") };
    expect(expectProblem(await d.as.trader.call("POST", ORDERS, market), 503).title).toBe("Price Unavailable");
    d.proxy.clearFaults();
    expect(await d.sandboxOrders(ref)).toEqual([]);
    expect(await d.sandboxOrders(market.ref_id)).toEqual([]);
  });
});

describe.each<Database>(["sqlite", "postgres"])("the daily limit on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await inProcessDashboard({ database });
  });
  afterAll(() => d?.dispose());

  it("sends exactly 3 of 10 parallel 40,000 USD orders where the limit leaves room for 3", async () => {
    await setPolicy(d, (p) => ({
      ...p,
      approval_rules: p.approval_rules.filter((r: { kind: string }) => r.kind !== "order"),
      limits: { ...p.limits, daily_order_notional_usd_per_user: "120000" },
    }));
    // LTCUSD has no book: each bid rests, worth its own 400 × 100 USD.
    const refs = Array.from({ length: 10 }, () => newRef("par"));
    const answers = await Promise.all(
      refs.map((ref) => d.as.trader.call("POST", ORDERS, buy("LTCUSD", "100.00", "400", ref))),
    );
    const sent = answers.filter((a) => a.status === 200).length;
    console.info(`daily limit with room for 3 on ${database}: ${sent} of 10 parallel orders sent`);
    expect(sent).toBe(3);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.body.type])).toEqual(Array(7).fill([403, "/problems/limit-exceeded"]));
    const made = (await Promise.all(refs.map((ref) => d.sandboxOrders(ref)))).flat();
    expect(made).toHaveLength(3);
    expect((await audited(d, "limit.refused")).length).toBeGreaterThanOrEqual(7);
  });

  it("counts approved orders toward it", async () => {
    await setPolicy(d, (p) => ({
      ...p,
      approval_rules: [
        ...p.approval_rules,
        { kind: "order", threshold_usd: "100000", approvals_needed: 1, open_minutes: 120 },
      ],
      limits: { ...p.limits, daily_order_notional_usd_per_user: "150000" },
    }));
    // The admin's own day: 120,000 USD held, approved and sent; then 40,000 more is past 150,000.
    const big = await d.as.admin.call("POST", ORDERS, buy("LTCUSD", "100.00", "1200"));
    expect(big.status, JSON.stringify(big.body)).toBe(202);
    expect((await approveAs(d.as.approver, big.body.approval.id)).body.approval.outcome).toMatchObject({ status: 200 });
    const more = await d.as.admin.call("POST", ORDERS, buy("LTCUSD", "100.00", "400"));
    expect(expectProblem(more, 403).meta).toMatchObject({
      rule: "daily_order_notional_usd_per_user",
      used: "120000.00",
    });
  });

  it("takes one of 10 identical orders sent at once (sent, or held), and asks about the other nine", async () => {
    // The same request apart from its ref_id, ten times at once: the repeat question is asked in
    // the person's lock, against what the others wrote.
    const refs = Array.from({ length: 10 }, () => newRef("twin"));
    const same = { market: "LTCUSD", side: "BUY", type: "LIMIT", price: "50.00", base_amount: "1" };
    const answers = await Promise.all(refs.map((ref_id) => d.as.trader.call("POST", ORDERS, { ...same, ref_id })));
    // The one taken is sent (200), or held (202) where the trader's rolling total, after the
    // tests above, passes the approval threshold; either way the other nine are asked about it.
    const taken = answers.filter((a) => a.status === 200 || a.status === 202);
    expect(taken, answers.map((a) => `${a.status} ${a.body?.title ?? ""}`).join(", ")).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.title)).toEqual(
      Array(9).fill("Possible Duplicate"),
    );
    const made = (await Promise.all(refs.map((ref) => d.sandboxOrders(ref)))).flat();
    expect(made).toHaveLength(taken[0]!.status === 200 ? 1 : 0);
  });
});

describe("four eyes that hold", () => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await inProcessDashboard();
  });
  afterAll(() => d?.dispose());

  it("refuses a forged \"Don't send\" under someone else's held request; that request is still sent once approved", async () => {
    const victim = newRef("victim");
    const held = await d.as.ops.call("POST", TRANSFERS, transfer("20000", victim));
    expect(held.status).toBe(202);
    // The colleague's own create, named as what the victim's request "repeats".
    const own = newRef("own");
    expect((await d.as.admin.call("POST", TRANSFERS, transfer("5", own))).status).toBe(200);
    const forged = await d.as.admin.call("POST", "/api/activity/declined", {
      kind: "transfer",
      request: transfer("20000", victim),
      duplicate_of: own,
    });
    expect([400, 409]).toContain(expectProblem(forged, forged.status).status);
    expect(await d.journal(victim)).toEqual([]);
    const approved = await approveAs(d.as.approver, held.body.approval.id);
    expect(approved.body.approval.outcome).toMatchObject({ status: 200 });
    expect((await d.sandboxTransfers(victim)).filter((t) => t.direction === "DEBIT")).toHaveLength(1);
  });

  it('audits a true "Don\'t send", and a self-approval attempt', async () => {
    const first = transfer("7", newRef("first"));
    expect((await d.as.ops.call("POST", TRANSFERS, first)).status).toBe(200);
    const again = { ...first, ref_id: newRef("again") };
    expect((await d.as.ops.call("POST", TRANSFERS, again)).status).toBe(409);
    const declined = await d.as.ops.call("POST", "/api/activity/declined", {
      kind: "transfer",
      request: again,
      duplicate_of: first.ref_id,
    });
    expect(declined.status).toBe(200);
    expect((await audited(d, "create.declined")).map((e) => e.subject)).toContain(again.ref_id);

    // Only an admin may both ask and approve: their own request is refused to them, and recorded.
    const held = await d.as.admin.call("POST", TRANSFERS, transfer("20000"));
    expect(held.status).toBe(202);
    expectProblem(await approveAs(d.as.admin, held.body.approval.id), 403);
    expect((await audited(d, "approval.self_refused")).map((e) => e.subject)).toContain(held.body.approval.id);
  });

  it("checks an approval again at send: an order held under a 1,000,000 USD limit is not sent after it was lowered to 1,000", async () => {
    const ref = newRef("lowered");
    const held = await d.as.trader.call("POST", ORDERS, buy("LTCUSD", "100.00", "1500", ref));
    expect(held.status).toBe(202);
    const traderLimit = (limit: string) =>
      setPolicy(d, (p) => ({
        ...p,
        limits: { ...p.limits, max_order_notional_usd: { ...p.limits.max_order_notional_usd, trader: limit } },
      }));
    await traderLimit("1000");
    try {
      const approved = await approveAs(d.as.approver, held.body.approval.id);
      expect(approved.body.approval).toMatchObject({
        status: "APPROVED",
        outcome: { status: 403, sent: false, body: { meta: { rule: "max_order_notional_usd", limit: "1000" } } },
      });
      expect(await d.sandboxOrders(ref)).toEqual([]);
      expect(
        (await d.as.trader.call("GET", `/api/approvals/${held.body.approval.id}`)).body.approval.outcome.status,
      ).toBe(403);
      expect((await audited(d, "approval.send_refused")).map((e) => e.subject)).toContain(held.body.approval.id);
    } finally {
      await traderLimit("1000000");
    }
  });

  it("checks the price guard again at send: an order that would now take far from the mid is not sent", async () => {
    const ref = newRef("moved");
    // LINKUSD has no book: a bid at 10 rests, worth 12,000 × 10 USD, held for approval.
    const held = await d.as.trader.call("POST", ORDERS, buy("LINKUSD", "10.00", "12000", ref));
    expect(held.status).toBe(202);
    // While it waits the market settles at 7.90 / 8.10: the bid at 10 would now take, 25% from the mid.
    await quote(d, "LINKUSD", "7.90", "8.10", "1000");
    const approved = await approveAs(d.as.approver, held.body.approval.id);
    expect(approved.body.approval.outcome).toMatchObject({ status: 428, sent: false });
    expect(await d.sandboxOrders(ref)).toEqual([]);
  });

  it("does not let one admin switch four eyes off: the change waits for someone else", async () => {
    const before = (await d.as.admin.call("GET", "/api/policies")).body.policy;
    const res = await d.as.admin.call("PUT", "/api/policies", { ...before, approval_rules: [] });
    expect(res.status).toBe(202);
    expect(res.body.approval).toMatchObject({ kind: "policy", status: "PENDING", requested_by: "admin@example.com" });
    expect((await d.as.viewer.call("GET", "/api/policies")).body.policy).toEqual(before);
    expectProblem(await approveAs(d.as.admin, res.body.approval.id), 403);
    // A big transfer is still held meanwhile.
    expect((await d.as.admin.call("POST", TRANSFERS, transfer("20000"))).status).toBe(202);
    const listed = (await d.as.approver.call("GET", "/api/approvals?status=PENDING")).body.items;
    expect(listed.map((a: { id: string }) => a.id)).toContain(res.body.approval.id);
    expect((await approveAs(d.as.approver, res.body.approval.id)).body.approval.outcome).toMatchObject({ status: 200 });
    expect((await d.as.viewer.call("GET", "/api/policies")).body.policy.approval_rules).toEqual([]);
    // Tightening applies at once.
    expect((await d.as.admin.call("PUT", "/api/policies", before)).status).toBe(200);
  });
});
