import { afterEach, describe, expect, it } from "vitest";
import { createInternalTransfer, createOrder } from "@/lib/server/creates";
import { findByRefId as journalEntryOf, listEntries } from "@/lib/server/db/journal";
import { TokenRequestError, UpstreamTimeout, UpstreamUnreachable } from "@/lib/server/upstream/errors";
import { testRuntime, type FakeAnswer } from "../../support/runtime";

const trader = { email: "trader@example.com", name: "Taylor Trader", role: "trader" as const };
const asTrader = { user: trader, ip: null };
const limitBuy = { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "100.00", base_amount: "0.01" };
const orderRecord = (refId: string) => ({
  id: "order-1",
  profile_id: "trading",
  ref_id: refId,
  status: "SUBMITTED",
  ...limitBuy,
  base_amount: "0.01000000",
  quote_amount: "",
});

/** The prices the controls value a request with: ETH at 100 USD, an empty book. */
function marketData(path: string) {
  const level = (price: string) => ({ price, amount: "1" });
  if (path.endsWith("/ticker")) return { body: { best_bid: level("99"), best_ask: level("101") } };
  if (path.endsWith("/order-book")) return { body: { bids: [], asks: [] } };
  return undefined;
}

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

/** A runtime whose service answers each POST with the next of `posts`, and each lookup by ref_id with `found`. */
async function setUp(posts: FakeAnswer[], found: (refId: string) => unknown[] = () => []) {
  let post = 0;
  const rt = await testRuntime((request) => {
    const market = marketData(request.path);
    if (market) return market;
    if (request.method === "GET") return { body: { items: found(String((request.query?.ref_ids as string[])[0])) } };
    return posts[Math.min(post++, posts.length - 1)]!(request);
  });
  dispose = rt.dispose;
  const posted = () => rt.calls.filter((c) => c.method === "POST");
  return { ...rt, posted };
}

describe("createOrder", () => {
  it("journals the order before sending it, then completes the entry with the record", async () => {
    let pendingWhenSent: unknown;
    const { runtime, posted } = await setUp([
      async (req) => {
        const refId = (req.body as { ref_id: string }).ref_id;
        pendingWhenSent = (await journalEntryOf(runtime.db, "order", refId))?.status;
        return { body: orderRecord(refId) };
      },
    ]);
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-1" }, asTrader);
    expect(pendingWhenSent).toBe("pending");
    expect(result).toMatchObject({ status: 200, body: { id: "order-1", ref_id: "r-1" } });
    expect(posted()).toHaveLength(1);
    expect(posted()[0]).toMatchObject({ path: "/profiles/trading/orders", body: { ref_id: "r-1" } });
    expect(await journalEntryOf(runtime.db, "order", "r-1")).toMatchObject({
      status: "succeeded",
      user_email: "trader@example.com",
      result_id: "order-1",
    });
  });

  it("gives an order sent without ref_id one of its own", async () => {
    const { runtime, posted } = await setUp([
      (req) => ({ body: orderRecord((req.body as { ref_id: string }).ref_id) }),
    ]);
    await createOrder(runtime, "trading", limitBuy, asTrader);
    expect((posted()[0]!.body as { ref_id: string }).ref_id).toMatch(/^dash-/);
  });

  it("refuses a request that breaks a rule before journaling or sending anything", async () => {
    const { runtime, calls } = await setUp([() => ({ status: 500 })]);
    const error = await createOrder(runtime, "trading", { ...limitBuy, price: "-1" }, asTrader).catch((e) => e);
    expect(error.problem).toMatchObject({ status: 400, meta: { errors: [{ field: "price" }] } });
    expect(calls).toHaveLength(0);
    expect((await listEntries(runtime.db)).items).toHaveLength(0);
  });

  it("retries a 5xx with the same ref_id, and the one record is the answer", async () => {
    const { runtime, posted } = await setUp([
      () => ({ status: 503, body: { type: "about:blank", title: "Unavailable", status: 503 } }),
      (req) => ({ body: orderRecord((req.body as { ref_id: string }).ref_id) }),
    ]);
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-5xx" }, asTrader);
    expect(result.status).toBe(200);
    expect(posted().map((c) => (c.body as { ref_id: string }).ref_id)).toEqual(["r-5xx", "r-5xx"]);
  });

  it("after timeouts, asks the service by ref_id before calling the create failed", async () => {
    const { runtime, posted } = await setUp(
      [
        () => {
          throw new UpstreamTimeout("service.test", 10, "request");
        },
      ],
      (refId) => [orderRecord(refId)],
    );
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-slow" }, asTrader);
    expect(result).toMatchObject({ status: 200, body: { ref_id: "r-slow" } });
    expect(posted()).toHaveLength(3);
    expect(await journalEntryOf(runtime.db, "order", "r-slow")).toMatchObject({ status: "succeeded" });
  });

  it("resolves the service's 409 for our own ref_id to the original order", async () => {
    const conflict = { type: "/problems/already-exists", title: "Already Exists", status: 409 };
    const { runtime } = await setUp([() => ({ status: 409, body: conflict })], (refId) => [orderRecord(refId)]);
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-409" }, asTrader);
    expect(result).toMatchObject({ status: 200, body: { id: "order-1" } });
  });

  it("keeps a 409 for a ref_id that belongs to a different order", async () => {
    const conflict = { type: "/problems/already-exists", title: "Already Exists", status: 409 };
    const other = (refId: string) => [{ ...orderRecord(refId), side: "SELL" }];
    const { runtime } = await setUp([() => ({ status: 409, body: conflict })], other);
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-other" }, asTrader);
    expect(result).toMatchObject({ status: 409, body: { detail: expect.stringContaining("different order") } });
  });

  it("does not retry a refusal (4xx) and journals it as failed", async () => {
    const funds = { type: "/problems/insufficient-funds", title: "Insufficient Funds", status: 403 };
    const { runtime, posted } = await setUp([() => ({ status: 403, body: funds })]);
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-403" }, asTrader);
    expect(result).toMatchObject({ status: 403, body: funds });
    expect(posted()).toHaveLength(1);
    expect(await journalEntryOf(runtime.db, "order", "r-403")).toMatchObject({ status: "failed", http_status: 403 });
  });

  it("says so when the service refuses or throttles the dashboard's sign-in, and sends nothing more", async () => {
    for (const [status, title, httpStatus] of [
      [429, "Service Busy", 503],
      [401, "Service Sign-in Failed", 502],
    ] as const) {
      const {
        runtime,
        posted,
        dispose: close,
      } = await setUp([
        () => {
          throw new TokenRequestError("refused", status, undefined);
        },
      ]);
      const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: `r-token-${status}` }, asTrader);
      expect(result).toMatchObject({ status: httpStatus, body: { title } });
      expect(posted()).toHaveLength(1);
      await close();
    }
    dispose = undefined;
  });

  it("answers a replay of a sent order from the journal, without sending it again", async () => {
    const { runtime, posted } = await setUp([
      (req) => ({ body: orderRecord((req.body as { ref_id: string }).ref_id) }),
    ]);
    const first = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-twice" }, asTrader);
    const again = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-twice" }, asTrader);
    expect(again).toEqual(first);
    expect(posted()).toHaveLength(1);
    const different = await createOrder(runtime, "trading", { ...limitBuy, side: "SELL", ref_id: "r-twice" }, asTrader)
      .then(() => undefined)
      .catch((e) => e.problem);
    expect(different).toMatchObject({ status: 409, title: "Already Exists" });
  });
});

describe("createInternalTransfer", () => {
  it("sends the transfer once and reports an unreachable service in the shared words", async () => {
    const { runtime, posted } = await setUp([
      () => {
        throw new UpstreamUnreachable("service.test", "ECONNREFUSED", "request");
      },
    ]);
    const request = { from_profile_id: "a", to_profile_id: "b", asset: "USD", amount: "10", ref_id: "t-1" };
    const result = await createInternalTransfer(runtime, request, { user: { ...trader, role: "ops" }, ip: null });
    // Refused connections never reached the service, so they are retried; then the lookup finds nothing.
    expect(posted()).toHaveLength(3);
    expect(result).toMatchObject({ status: 502, body: { title: "Service Unreachable" } });
    expect(await journalEntryOf(runtime.db, "transfer", "t-1")).toMatchObject({ status: "failed", profile_id: "a" });
  });
});
