import { afterEach, describe, expect, it } from "vitest";
import { cancelOrder } from "@/lib/server/cancels";
import { beginEntry, completeEntry, listEntries } from "@/lib/server/db/journal";
import { reconcilePending } from "@/lib/server/reconcile";
import { UpstreamTimeout } from "@/lib/server/upstream/errors";
import { testRuntime, type FakeAnswer } from "../../support/runtime";

const trader = { email: "trader@example.com", name: "Taylor Trader", role: "trader" as const };

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

async function setUp(answer: FakeAnswer) {
  const rt = await testRuntime(answer);
  dispose = rt.dispose;
  return rt;
}

const cancels = async (db: Parameters<typeof listEntries>[0]) => (await listEntries(db, { kind: "cancel" })).items;

describe("cancelOrder", () => {
  it("journals the cancel before calling the service, with the order the dashboard placed, then its answer", async () => {
    let pendingWhenSent: unknown;
    const cancelled = { id: "o-1", profile_id: "trading", status: "CANCELLED" };
    const { runtime, calls, published } = await setUp(async (req) => {
      if (req.method === "GET") return { status: 200, body: cancelled };
      pendingWhenSent = await cancels(runtime.db);
      return { status: 200, body: {} };
    });
    const placed = await beginEntry(runtime.db, {
      at: new Date(),
      kind: "order",
      refId: "o-ref",
      userEmail: "trader@example.com",
      userRole: "trader",
      profileId: "trading",
      request: { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "100.00", base_amount: "0.01", ref_id: "o-ref" },
    });
    await completeEntry(runtime.db, placed.id, {
      status: "succeeded",
      httpStatus: 200,
      latencyMs: 1,
      record: { id: "o-1" },
    });

    const res = await cancelOrder(runtime, "trading", "o-1", trader);
    expect(res.status).toBe(200);
    // Acknowledged with {}: the order is read once and pushed to every screen as it now stands.
    expect(calls).toEqual([
      { method: "DELETE", path: "/profiles/trading/orders/o-1" },
      { method: "GET", path: "/profiles/trading/orders/o-1" },
    ]);
    expect(published).toEqual([{ name: "order", data: cancelled }]);
    expect(pendingWhenSent).toMatchObject([{ kind: "cancel", status: "pending", request: { order_id: "o-1" } }]);
    expect(await cancels(runtime.db)).toMatchObject([
      {
        user_email: "trader@example.com",
        user_role: "trader",
        profile_id: "trading",
        status: "succeeded",
        http_status: 200,
        result_id: "o-1",
        request: { order_id: "o-1", profile_id: "trading", order: { side: "BUY", market: "ETHUSD" } },
      },
    ]);
  });

  it("records the service's refusal as a failed cancel with its problem", async () => {
    const notFound = { type: "about:blank", title: "Not Found", status: 404, detail: "order not found: o-9" };
    const { runtime } = await setUp(() => ({ status: 404, body: notFound }));
    const res = await cancelOrder(runtime, "trading", "o-9", trader);
    expect(res.status).toBe(404);
    expect(await cancels(runtime.db)).toMatchObject([
      { status: "failed", http_status: 404, problem: notFound, result_id: null, request: { order_id: "o-9" } },
    ]);
    expect((await cancels(runtime.db))[0]!.request).not.toHaveProperty("order");
  });

  it("records a time-out as failed, and still throws it for the route to answer", async () => {
    const { runtime } = await setUp(() => {
      throw new UpstreamTimeout("service.test", 10, "request");
    });
    await expect(cancelOrder(runtime, "trading", "o-1", trader)).rejects.toBeInstanceOf(UpstreamTimeout);
    expect(await cancels(runtime.db)).toMatchObject([{ status: "failed", http_status: 504 }]);
  });

  it("a cancel a crash left pending is completed at start as unanswered, without asking the service by ref_id", async () => {
    const { runtime, calls } = await setUp(() => ({ status: 200, body: { items: [] } }));
    await beginEntry(runtime.db, {
      at: new Date(),
      kind: "cancel",
      refId: "c-1",
      userEmail: "trader@example.com",
      userRole: "trader",
      profileId: "trading",
      request: { order_id: "o-1", profile_id: "trading" },
    });
    expect(await reconcilePending(runtime, new Date(Date.now() + 1000))).toBe(1);
    expect(calls).toEqual([]);
    expect(await cancels(runtime.db)).toMatchObject([
      { status: "failed", http_status: 502, problem: { title: "No Answer" } },
    ]);
  });
});
