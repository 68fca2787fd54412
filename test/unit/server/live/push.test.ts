import { afterEach, describe, expect, it } from "vitest";
import type { Approval } from "@/lib/shared/approval";
import { approve, reject, withdraw } from "@/lib/server/approvals/decisions";
import { createInternalTransfer, createOrder } from "@/lib/server/create/pipeline";
import { fakeService } from "../../../support/fake-service";
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
    const rt = await testRuntime(
      fakeService({
        tickers: { ETHUSD: ["99", "101"] },
        create: () => ({ body: { id: "o-1", status: "SUBMITTED", ...body } }),
      }),
    );
    dispose = rt.dispose;
    await createOrder(rt.runtime, "trading", body, { user: trader, ip: null });
    expect(rt.published).toEqual([{ name: "order", data: expect.objectContaining({ id: "o-1" }) }]);
  });

  it("is not pushed when the service refuses it", async () => {
    const rt = await testRuntime(
      fakeService({
        tickers: { ETHUSD: ["99", "101"] },
        create: () => ({ status: 422, body: { type: "about:blank", title: "Bad", status: 422 } }),
      }),
    );
    dispose = rt.dispose;
    await createOrder(rt.runtime, "trading", { ...body, ref_id: "push-2" }, { user: trader, ip: null });
    expect(rt.published).toEqual([]);
  });
});

describe("an approval", () => {
  const ops = { email: "ops@example.com", name: "Oakley Ops", role: "ops" as const };
  const approver = { email: "approver@example.com", name: "Approver", role: "approver" as const };
  const transferBody = (ref_id: string) => ({
    from_profile_id: "treasury",
    to_profile_id: "settlement",
    asset: "USD",
    amount: "20000",
    ref_id,
    metadata: { ref: ref_id },
  });

  it("is pushed when requested, approved, sent, rejected and withdrawn", async () => {
    const rt = await testRuntime(
      fakeService({
        create: () => ({
          body: { id: "t-1", profile_id: "treasury", asset: "USD", amount: "20000", status: "PENDING" },
        }),
      }),
    );
    dispose = rt.dispose;
    const hold = async (ref: string) => {
      const res = await createInternalTransfer(rt.runtime, transferBody(ref), { user: ops, ip: null });
      return (res.body as { approval: Approval }).approval;
    };
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
