import type { ApprovalRule } from "@/lib/policy";
import { afterEach, describe, expect, it } from "vitest";
import { approve, reject, requestApproval, withdraw } from "@/lib/server/approvals";
import { createOnce, createSpecOf } from "@/lib/server/creates";
import { testRuntime } from "../../../support/runtime";

const trader = { email: "trader@example.com", name: "Taylor Trader", role: "trader" as const };
const body = { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "100.00", base_amount: "0.01", ref_id: "push-1" };

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

describe("a create made through the dashboard", () => {
  it("is pushed to the live streams as soon as the service answers it", async () => {
    const rt = await testRuntime(() => ({ body: { id: "o-1", status: "SUBMITTED", ...body } }));
    dispose = rt.dispose;
    await createOnce(rt.runtime, trader, createSpecOf("order", "trading", body));
    expect(rt.published).toEqual([{ name: "order", data: expect.objectContaining({ id: "o-1" }) }]);
  });

  it("is not pushed when the service refuses it", async () => {
    const rt = await testRuntime(() => ({ status: 422, body: { type: "about:blank", title: "Bad", status: 422 } }));
    dispose = rt.dispose;
    await createOnce(rt.runtime, trader, createSpecOf("order", "trading", { ...body, ref_id: "push-2" }));
    expect(rt.published).toEqual([]);
  });
});

describe("an approval", () => {
  const ops = { email: "ops@example.com", name: "Oakley Ops", role: "ops" as const };
  const approver = { email: "approver@example.com", name: "Approver", role: "approver" as const };
  const rule: ApprovalRule = { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 };
  const transferBody = (ref_id: string) => ({
    from_profile_id: "treasury",
    to_profile_id: "settlement",
    asset: "USD",
    amount: "20000",
    ref_id,
  });

  it("is pushed when requested, approved, sent, rejected and withdrawn", async () => {
    const rt = await testRuntime((req) =>
      req.method === "POST"
        ? { body: { id: "t-1", profile_id: "treasury", asset: "USD", amount: "20000", status: "PENDING" } }
        : { body: { items: [] } },
    );
    dispose = rt.dispose;
    const hold = (ref: string) =>
      requestApproval(
        rt.runtime,
        ops,
        { kind: "transfer", profileId: "treasury", body: transferBody(ref), valueUsd: "20000", rule },
        null,
      );
    const states = () =>
      rt.published
        .filter((e) => e.name === "approval")
        .map((e) => {
          const a = e.data as { status: string; outcome: unknown };
          return a.outcome ? `${a.status}+sent` : a.status;
        });

    const a = await hold("ap-1");
    await approve(rt.runtime, approver, a.id, null);
    expect(states()).toEqual(["PENDING", "APPROVED", "APPROVED+sent"]);
    // The approved request's create is pushed too.
    expect(rt.published.some((e) => e.name === "transfer")).toBe(true);

    rt.published.length = 0;
    await reject(rt.runtime, approver, (await hold("ap-2")).id, "No", null);
    await withdraw(rt.runtime, ops, (await hold("ap-3")).id, null);
    expect(states()).toEqual(["PENDING", "REJECTED", "PENDING", "WITHDRAWN"]);
  });
});
