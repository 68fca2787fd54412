import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectProblem,
  inProcessDashboard,
  newRef,
  SETTLEMENT,
  TREASURY,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * GET /api/approvals/{id}/context, what an approver reads beside a held create: the funds its
 * profile has now against what it spends, and the requester's sends of its kind today against
 * their limits (what waits counted, the request itself left out). Read-only and approvers' only;
 * then who approved a create, in GET /api/activity beside who asked. The route handlers are
 * called in process, on a runtime of this file's own.
 */

let d: InProcessDashboard;
beforeAll(async () => {
  d = await inProcessDashboard();
});
afterAll(() => d?.dispose());

const transfer = (ref: string, amount: string) => ({
  from_profile_id: TREASURY,
  to_profile_id: SETTLEMENT,
  asset: "USD",
  amount,
  ref_id: ref,
});

async function hold(amount: string) {
  const ref = newRef("ctx");
  const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", transfer(ref, amount));
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return { ref, id: res.body.approval.id as string };
}

describe("the approver's context", () => {
  it("counts what else the requester has waiting today, leaves the request itself out, and reads the funds now", async () => {
    const first = await hold("20000");
    const second = await hold("15000.50");
    const balances = await d.sandbox.call("GET", `/profiles/${TREASURY}/balances`);
    const usd = balances.body.items.find((b: { asset: string }) => b.asset === "USD").available;

    const res = await d.as.approver.call("GET", `/api/approvals/${second.id}/context`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.spend).toEqual({ profile_id: TREASURY, asset: "USD", amount: "15000.50", available: usd });
    expect(res.body.requester).toMatchObject({
      email: "ops@example.com",
      kind: "transfer",
      daily_limit_usd: "1000000",
      unapproved_24h_usd: "0",
      max_order_usd: null,
    });
    // The first waits (a reservation for the day); the second is the one being decided.
    expect(Number(res.body.requester.today_usd)).toBe(20000);
    const ofFirst = await d.as.admin.call("GET", `/api/approvals/${first.id}/context`);
    expect(Number(ofFirst.body.requester.today_usd)).toBe(15000.5);
  });

  it("changes nothing: the request still waits, nothing is journaled or sent", async () => {
    const held = await hold("21000");
    for (let i = 0; i < 3; i++)
      expect((await d.as.approver.call("GET", `/api/approvals/${held.id}/context`)).status).toBe(200);
    expect((await d.as.approver.call("GET", `/api/approvals/${held.id}`)).body.approval.status).toBe("PENDING");
    expect(await d.journal(held.ref)).toEqual([]);
    expect(await d.sandboxTransfers(held.ref)).toEqual([]);
  });

  it("is for approvers: the requester and other roles are refused, an unknown id is a 404, a policy change spends nothing", async () => {
    const held = await hold("22000");
    for (const role of ["ops", "trader", "viewer"] as const) {
      expectProblem(await d.as[role].call("GET", `/api/approvals/${held.id}/context`), 403);
    }
    expectProblem(await d.as.approver.call("GET", "/api/approvals/00000000-0000-7000-8000-000000000000/context"), 404);

    const policy = (await d.as.admin.call("GET", "/api/policies")).body.policy;
    const looser = { ...policy, limits: { ...policy.limits, price_guard_percent: "6" } };
    const change = await d.as.admin.call("PUT", "/api/policies", looser);
    expect(change.status, JSON.stringify(change.body)).toBe(202);
    const res = await d.as.approver.call("GET", `/api/approvals/${change.body.approval.id}/context`);
    expect(res.body).toEqual({ spend: null, requester: null });
    expect(
      (await d.as.approver.call("POST", `/api/approvals/${change.body.approval.id}/reject`, { reason: "no" })).status,
    ).toBe(200);
  });
});

describe("approval in the records", () => {
  it("GET /api/activity says who approved a create and when; a create sent without approval has none", async () => {
    const held = await hold("23000");
    expect((await d.as.approver.call("POST", `/api/approvals/${held.id}/approve`)).status).toBe(200);
    const [entry] = await d.journal(held.ref);
    expect(entry).toMatchObject({ user_email: "ops@example.com", status: "succeeded" });
    const approval = (
      entry as unknown as { approval: { id: string; approved_by: { by: string; role: string; at: string }[] } }
    ).approval;
    expect(approval.id).toBe(held.id);
    expect(approval.approved_by).toEqual([{ by: "approver@example.com", role: "approver", at: expect.any(String) }]);

    const small = newRef("ctx-small");
    expect((await d.as.ops.call("POST", "/api/v2/transfer/internal", transfer(small, "5.00"))).status).toBe(200);
    const [plain] = await d.journal(small);
    expect(plain).not.toHaveProperty("approval");
  });
});
