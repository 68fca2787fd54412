import { afterEach, describe, expect, it } from "vitest";
import type { Approval } from "@/lib/shared/approval";
import { DEFAULT_POLICY, type ApprovalRule, type Policy } from "@/lib/shared/policy";
import { approve, expireDue, getApproval, reject, withdraw } from "@/lib/server/approvals/decisions";
import { createInternalTransfer, createOrder } from "@/lib/server/create/pipeline";
import { replacePolicy } from "@/lib/server/approvals/policy-updates";
import { currentPolicy } from "@/lib/server/db/policy";
import { fakeService, type FakeService } from "../../support/fake-service";
import { testRuntime } from "../../support/runtime";

const ops = { email: "ops@example.com", name: "Oakley Ops", role: "ops" as const };
const trader = { email: "trader@example.com", name: "Taylor Trader", role: "trader" as const };
const admin = { email: "admin@example.com", name: "Avery Admin", role: "admin" as const };
const approver = (n = 1) => ({ email: `approver${n}@example.com`, name: `Approver ${n}`, role: "approver" as const });
const transfer = (refId: string, amount = "20000") => ({
  from_profile_id: "treasury",
  to_profile_id: "settlement",
  asset: "USD",
  amount,
  ref_id: refId,
  metadata: { ref: refId },
});

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

/**
 * A runtime whose service quotes BTCUSD at 99,999 / 100,001 and creates each request it is sent;
 * `posted` counts the creates, `hold` asks for a 20,000 USD transfer (over the 10,000 USD rule).
 */
async function setUp(service: FakeService = {}) {
  const rt = await testRuntime(
    fakeService({
      tickers: { BTCUSD: ["99999", "100001"] },
      create: (req) => ({ body: { id: "t-1", status: "PENDING", direction: "DEBIT", ...(req.body as object) } }),
      ...service,
    }),
  );
  dispose = rt.dispose;
  const posted = () => rt.calls.filter((c) => c.method === "POST").length;
  const hold = async (refId: string, over: Partial<ApprovalRule> = {}) => {
    if (Object.keys(over).length > 0) {
      const rule = { ...DEFAULT_POLICY.approval_rules[0]!, ...over };
      await setPolicy(rt.runtime, { ...DEFAULT_POLICY, approval_rules: [rule] });
    }
    const res = await createInternalTransfer(rt.runtime, transfer(refId), { user: ops, ip: "127.0.0.1" });
    expect(res.status).toBe(202);
    return (res.body as { approval: Approval }).approval;
  };
  return { ...rt, posted, hold };
}

async function setPolicy(runtime: Awaited<ReturnType<typeof testRuntime>>["runtime"], policy: Policy) {
  const row = { document_json: JSON.stringify(policy), updated_at: "", updated_by: "test" };
  await runtime.db
    .insertInto("policy")
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column("id").doUpdateSet(row))
    .execute();
}

describe("four-eyes approvals", () => {
  it("holds a request, never sent, until another person approves it; then sends it once", async () => {
    const { runtime, posted, hold } = await setUp();
    const held = await hold("a-1");
    expect(held).toMatchObject({ status: "PENDING", kind: "transfer", requested_by: "ops@example.com", approvals: [] });
    expect(held.approvals_needed).toBe(1);
    expect(Date.parse(held.expires_at) - Date.parse(held.created_at)).toBe(120 * 60_000);
    expect(posted()).toBe(0);

    const self = await approve(runtime, ops, held.id, null).catch((e) => e.problem);
    expect(self).toMatchObject({ status: 403 });
    expect(posted()).toBe(0);

    const done = await approve(runtime, approver(), held.id, null);
    expect(done).toMatchObject({ status: "APPROVED", decided_by: "approver1@example.com" });
    expect(done.approvals).toEqual([{ by: "approver1@example.com", role: "approver", at: expect.any(String) }]);
    expect(done.outcome).toMatchObject({ status: 200, sent: true, body: { id: "t-1" } });
    expect(posted()).toBe(1);
    expect((await approve(runtime, approver(2), held.id, null).catch((e) => e.problem)).status).toBe(409);
    // Journaled as sent under its approval, at its value.
    const entry = await runtime.db.selectFrom("journal").selectAll().where("ref_id", "=", "a-1").executeTakeFirst();
    expect(entry).toMatchObject({ approval_id: held.id, value_usd: "20000.00000000", status: "succeeded" });
  });

  it("sends once when ten approvers approve at the same instant", async () => {
    const { runtime, posted, hold } = await setUp();
    const held = await hold("a-10");
    await Promise.allSettled(Array.from({ length: 10 }, (_, i) => approve(runtime, approver(i), held.id, null)));
    expect(posted()).toBe(1);
    expect((await getApproval(runtime, held.id)).status).toBe("APPROVED");
  });

  it("waits for two different approvers when the rule asks for two", async () => {
    const { runtime, posted, hold } = await setUp();
    const held = await hold("a-2", { approvals_needed: 2 });
    expect((await approve(runtime, approver(1), held.id, null)).status).toBe("PENDING");
    expect((await approve(runtime, approver(1), held.id, null).catch((e) => e.problem)).status).toBe(409);
    expect(posted()).toBe(0);
    expect((await approve(runtime, approver(2), held.id, null)).status).toBe("APPROVED");
    expect(posted()).toBe(1);
  });

  it("never sends a rejected, withdrawn or expired request, and none can be decided again", async () => {
    const { runtime, posted, hold } = await setUp();
    const rejected = await reject(runtime, approver(), (await hold("r-1")).id, "Wrong profile", null);
    expect(rejected).toMatchObject({
      status: "REJECTED",
      reason: "Wrong profile",
      decided_by: "approver1@example.com",
    });

    const mine = await hold("w-1");
    expect((await withdraw(runtime, approver(), mine.id, null).catch((e) => e.problem)).status).toBe(403);
    expect((await withdraw(runtime, ops, mine.id, null)).status).toBe("WITHDRAWN");

    const late = await hold("e-1");
    expect(await expireDue(runtime, new Date(Date.now() + 121 * 60_000))).toBe(1);
    expect((await getApproval(runtime, late.id)).status).toBe("EXPIRED");

    for (const id of [rejected.id, mine.id, late.id]) {
      expect((await approve(runtime, approver(3), id, null).catch((e) => e.problem)).status).toBe(409);
    }
    expect(posted()).toBe(0);
  });

  it("answers a repeated request with the approval its ref_id already made", async () => {
    const { hold } = await setUp();
    const first = await hold("same");
    expect((await hold("same")).id).toBe(first.id);
  });

  it("audits every step, a self-approval attempt included, in a chain that verifies", async () => {
    const { runtime, hold } = await setUp();
    const held = await hold("audit-1");
    await approve(runtime, ops, held.id, "10.0.0.8").catch(() => undefined);
    await approve(runtime, approver(), held.id, "10.0.0.7");
    const actions = await runtime.db
      .selectFrom("audit")
      .select(["action", "actor_email", "ip"])
      .orderBy("seq")
      .execute();
    expect(actions).toEqual([
      { action: "approval.requested", actor_email: "ops@example.com", ip: "127.0.0.1" },
      { action: "approval.self_refused", actor_email: "ops@example.com", ip: "10.0.0.8" },
      { action: "approval.approved", actor_email: "approver1@example.com", ip: "10.0.0.7" },
      // Sent on behalf of the requester, once approved.
      { action: "create.requested", actor_email: "ops@example.com", ip: null },
      { action: "create.succeeded", actor_email: "ops@example.com", ip: null },
    ]);
    expect(await runtime.audit.verify()).toEqual({ ok: true, entries: 5 });
  });
});

describe("an approval checked again at send", () => {
  const refusedOutcome = async (approval: Promise<Approval>) => (await approval).outcome;

  it("sends nothing when the limit in force was lowered meanwhile, and keeps the refusal as its outcome", async () => {
    const { runtime, posted, hold } = await setUp();
    const held = await hold("lowered");
    await setPolicy(runtime, {
      ...DEFAULT_POLICY,
      limits: { ...DEFAULT_POLICY.limits, daily_transfer_usd_per_user: "1000" },
    });
    const outcome = await refusedOutcome(approve(runtime, approver(), held.id, null));
    expect(outcome).toMatchObject({
      status: 403,
      sent: false,
      body: { type: "/problems/limit-exceeded", meta: { rule: "daily_transfer_usd_per_user", limit: "1000" } },
    });
    expect(posted()).toBe(0);
    expect((await getApproval(runtime, held.id)).status).toBe("APPROVED");
    const actions = (await runtime.db.selectFrom("audit").select("action").execute()).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["limit.refused", "approval.send_refused"]));
  });

  it("sends nothing when the requester's role no longer may make it", async () => {
    const { runtime, posted, hold } = await setUp();
    const held = await hold("demoted");
    // The requester signed in again since, as a viewer.
    await runtime.sessions.start({ email: ops.email, role: "viewer", provider: "credentials", ip: null });
    const outcome = await refusedOutcome(approve(runtime, approver(), held.id, null));
    expect(outcome).toMatchObject({ status: 403, sent: false, body: { meta: { role: "viewer" } } });
    expect(posted()).toBe(0);
  });

  it("values an order at today's prices: past the role's limit now, it is not sent", async () => {
    let bid = "99999";
    const { runtime, posted } = await setUp({ create: (req) => ({ body: { id: "o-1", ...(req.body as object) } }) });
    const rt = runtime;
    rt.upstream = {
      request: async (req) => {
        const answer = await fakeService({ tickers: { BTCUSD: [bid, String(Number(bid) + 2)] } })(req);
        return { status: 200, body: null, headers: new Headers(), ...answer };
      },
    };
    const order = { market: "BTCUSD", side: "BUY", type: "LIMIT", price: "90000.00", base_amount: "5", ref_id: "o" };
    const res = await createOrder(rt, "trading", order, { user: trader, ip: null });
    expect(res).toMatchObject({ status: 202, body: { approval: { value_usd: "500000.00000000" } } });
    // The price rose while it waited: 5 × 210,000 is past the trader's 1,000,000 USD.
    bid = "209999";
    const id = (res.body as { approval: Approval }).approval.id;
    const outcome = await refusedOutcome(approve(rt, approver(), id, null));
    expect(outcome).toMatchObject({ status: 403, sent: false, body: { meta: { rule: "max_order_notional_usd" } } });
    expect(posted()).toBe(0);
  });

  it("asks the price guard again: an order that would now take far from the mid is not sent", async () => {
    let quote: [string, string] = ["119999", "130000"];
    const { runtime, posted } = await setUp();
    runtime.upstream = {
      request: async (req) => {
        const answer = await fakeService({ tickers: { BTCUSD: quote } })(req);
        return { status: 200, body: null, headers: new Headers(), ...answer };
      },
    };
    // Rests below the ask of 130,000 when asked for; the market falls to a mid of 100,000 while it
    // waits, so it would now take at its own 120,000: 20% from the mid.
    const order = { market: "BTCUSD", side: "BUY", type: "LIMIT", price: "120000.00", base_amount: "1", ref_id: "g" };
    const res = await createOrder(runtime, "trading", order, { user: trader, ip: null });
    expect(res.status).toBe(202);
    quote = ["99999", "100001"];
    const outcome = await refusedOutcome(
      approve(runtime, approver(), (res.body as { approval: Approval }).approval.id, null),
    );
    expect(outcome).toMatchObject({ status: 428, sent: false });
    expect(posted()).toBe(0);
  });

  it("checks the funds again: a balance spent meanwhile refuses it", async () => {
    const balances: Record<string, Record<string, string>> = { treasury: { USD: "50000" }, settlement: {} };
    const { runtime, posted, hold } = await setUp({ balances });
    const held = await hold("funds");
    balances.treasury = { USD: "100" };
    const outcome = await refusedOutcome(approve(runtime, approver(), held.id, null));
    expect(outcome).toMatchObject({ status: 403, sent: false, body: { title: "Insufficient Funds" } });
    expect(posted()).toBe(0);
  });
});

describe("policy changes under four eyes", () => {
  it("holds a loosening change until someone else approves it; a tightening one applies at once", async () => {
    const { runtime } = await setUp();
    const off: Policy = { ...DEFAULT_POLICY, approval_rules: [] };
    const asked = await replacePolicy(runtime, admin, off, null);
    expect(asked).toMatchObject({
      status: 202,
      approval: { kind: "policy", status: "PENDING", requested_by: admin.email },
    });
    expect(await currentPolicy(runtime.db)).toEqual(DEFAULT_POLICY);
    const id = asked.status === 202 ? asked.approval.id : "";
    expect((await approve(runtime, admin, id, null).catch((e) => e.problem)).status).toBe(403);
    const approved = await approve(runtime, { ...admin, email: "admin2@example.com" }, id, null);
    expect(approved).toMatchObject({ status: "APPROVED", outcome: { status: 200 } });
    expect(await currentPolicy(runtime.db)).toEqual(off);

    const stricter: Policy = { ...off, limits: { ...off.limits, price_guard_percent: "2" } };
    expect(await replacePolicy(runtime, admin, stricter, null)).toMatchObject({ status: 200 });
    expect(await currentPolicy(runtime.db)).toEqual(stricter);
  });

  it("does not apply an approved change asked against a policy that changed since", async () => {
    const { runtime } = await setUp();
    const looser: Policy = { ...DEFAULT_POLICY, limits: { ...DEFAULT_POLICY.limits, price_guard_percent: "9" } };
    const asked = await replacePolicy(runtime, admin, looser, null);
    const stricter: Policy = { ...DEFAULT_POLICY, limits: { ...DEFAULT_POLICY.limits, price_guard_percent: "1" } };
    expect((await replacePolicy(runtime, admin, stricter, null)).status).toBe(200);
    const approved = await approve(runtime, approver(), asked.status === 202 ? asked.approval.id : "", null);
    expect(approved.outcome).toMatchObject({ status: 409, sent: false });
    expect(await currentPolicy(runtime.db)).toEqual(stricter);
  });
});
