import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalRule } from "@/lib/policy";
import { approve, expireDue, getApproval, reject, requestApproval, withdraw } from "@/lib/server/approvals";
import { testRuntime } from "../../support/runtime";

const ops = { email: "ops@example.com", name: "Oakley Ops", role: "ops" as const };
const approver = (n = 1) => ({ email: `approver${n}@example.com`, name: `Approver ${n}`, role: "approver" as const });
const rule: ApprovalRule = { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 };
const transfer = (refId: string) => ({
  from_profile_id: "treasury",
  to_profile_id: "settlement",
  asset: "USD",
  amount: "20000",
  ref_id: refId,
});

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

/** A runtime whose service creates each transfer it is sent; `posted` counts the creates. */
async function setUp() {
  const rt = await testRuntime((req) =>
    req.method === "POST"
      ? {
          body: {
            id: "t-1",
            profile_id: "treasury",
            asset: "USD",
            amount: "20000",
            status: "PENDING",
            direction: "DEBIT",
          },
        }
      : { body: { items: [] } },
  );
  dispose = rt.dispose;
  const posted = () => rt.calls.filter((c) => c.method === "POST").length;
  const hold = (refId: string, over: Partial<ApprovalRule> = {}) =>
    requestApproval(
      rt.runtime,
      ops,
      { kind: "transfer", profileId: "treasury", body: transfer(refId), valueUsd: "20000", rule: { ...rule, ...over } },
      "127.0.0.1",
    );
  return { ...rt, posted, hold };
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
    expect(done.outcome).toMatchObject({ status: 200, body: { id: "t-1" } });
    expect(posted()).toBe(1);
    expect((await approve(runtime, approver(2), held.id, null).catch((e) => e.problem)).status).toBe(409);
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

  it("audits every step, in a chain that verifies", async () => {
    const { runtime, hold } = await setUp();
    const held = await hold("audit-1");
    await approve(runtime, approver(), held.id, "10.0.0.7");
    const actions = await runtime.db
      .selectFrom("audit")
      .select(["action", "actor_email", "ip"])
      .orderBy("seq")
      .execute();
    expect(actions).toEqual([
      { action: "approval.requested", actor_email: "ops@example.com", ip: "127.0.0.1" },
      { action: "approval.approved", actor_email: "approver1@example.com", ip: "10.0.0.7" },
      // Sent on behalf of the requester, once approved.
      { action: "create.requested", actor_email: "ops@example.com", ip: null },
      { action: "create.succeeded", actor_email: "ops@example.com", ip: null },
    ]);
    expect(await runtime.audit.verify()).toEqual({ ok: true, entries: 4 });
  });
});
