import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_POLICY } from "@/lib/shared/policy";
import { createInternalTransfer, createOrder } from "@/lib/server/create/pipeline";
import { declineRepeat } from "@/lib/server/create/decline-repeat";
import { reconcilePending, staleBefore, STALE_PENDING_MS } from "@/lib/server/reconcile";
import { journalEntryOfRef, listEntries } from "@/lib/server/db/journal";
import type { SignedInUser } from "@/lib/server/auth/session";
import { TokenRequestError, UpstreamLocked, UpstreamTimeout, UpstreamUnreachable } from "@/lib/server/upstream/errors";
import { fakeService } from "../../support/fake-service";
import { testRuntime, type FakeAnswer } from "../../support/runtime";

const trader: SignedInUser = { email: "trader@example.com", name: "Taylor Trader", role: "trader" };
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

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

/**
 * A runtime whose service quotes ETH at 99 / 101 (mid 100), answers each POST with the next of
 * `posts`, and each lookup by ref_id with `found`.
 */
async function setUp(posts: FakeAnswer[], found: (refId: string) => unknown[] = () => []) {
  let post = 0;
  const rt = await testRuntime(
    fakeService({
      tickers: { ETHUSD: ["99", "101"] },
      found,
      create: (request) => posts[Math.min(post++, posts.length - 1)]!(request),
    }),
  );
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
        pendingWhenSent = (await journalEntryOfRef(runtime.db, "order", refId))?.status;
        return { body: orderRecord(refId) };
      },
    ]);
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-1" }, asTrader);
    expect(pendingWhenSent).toBe("pending");
    expect(result).toMatchObject({ status: 200, body: { id: "order-1", ref_id: "r-1" } });
    expect(posted()).toHaveLength(1);
    expect(posted()[0]).toMatchObject({ path: "/profiles/trading/orders", body: { ref_id: "r-1" } });
    expect(await journalEntryOfRef(runtime.db, "order", "r-1")).toMatchObject({
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
    expect(await journalEntryOfRef(runtime.db, "order", "r-slow")).toMatchObject({ status: "succeeded" });
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

  it("resolves a 409 from the record it carries in meta.existing, compared by meaning ('0' unset, 0.01 as 0.01000000)", async () => {
    const { runtime, calls } = await setUp([
      (req) => {
        const refId = (req.body as { ref_id: string }).ref_id;
        // As the published List Orders writes an unused amount: "0", not "".
        const existing = { ...orderRecord(refId), quote_amount: "0", price: "100" };
        return {
          status: 409,
          body: { type: "/problems/already-exists", title: "Already exists", status: 409, meta: { existing } },
        };
      },
    ]);
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-meta" }, asTrader);
    expect(result).toMatchObject({ status: 200, body: { id: "order-1", ref_id: "r-meta" } });
    // Resolved from the 409 itself: no look-up by ref_id was needed.
    expect(calls.filter((c) => c.method === "GET" && c.path === "/orders")).toHaveLength(0);
    expect(await journalEntryOfRef(runtime.db, "order", "r-meta")).toMatchObject({ status: "succeeded" });
  });

  it("sends nothing more into a lockout: the first attempt's 503 is the answer, journaled as failed", async () => {
    const { runtime, posted } = await setUp([
      () => {
        throw new UpstreamLocked(Date.now() + 300_000, "request");
      },
    ]);
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-locked" }, asTrader);
    expect(result).toMatchObject({ status: 503, body: { meta: { locked_until: expect.any(String) } } });
    expect(posted()).toHaveLength(1);
    expect(await journalEntryOfRef(runtime.db, "order", "r-locked")).toMatchObject({
      status: "failed",
      http_status: 503,
    });
  });

  it("leaves a create pending when an attempt may have landed and the service cannot be asked now", async () => {
    let landed = false;
    const { runtime, posted } = await setUp(
      [
        () => {
          throw new UpstreamTimeout("service.test", 10, "request");
        },
        () => {
          throw new UpstreamLocked(Date.now() + 300_000, "request");
        },
      ],
      (refId) => (landed ? [orderRecord(refId)] : []),
    );
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-undecided" }, asTrader);
    expect(result).toMatchObject({
      status: 503,
      body: {
        meta: { locked_until: expect.any(String) },
        detail: expect.stringContaining("stays in the journal as pending"),
      },
    });
    expect(posted()).toHaveLength(2);
    expect(await journalEntryOfRef(runtime.db, "order", "r-undecided")).toMatchObject({ status: "pending" });
    // The journal's sweep asks again once the entry is stale: the service now lists the order.
    landed = true;
    await reconcilePending(runtime, staleBefore(Date.now() + STALE_PENDING_MS + 1));
    expect(await journalEntryOfRef(runtime.db, "order", "r-undecided")).toMatchObject({
      status: "succeeded",
      result_id: "order-1",
    });
  });

  it("does not retry a refusal (4xx) and journals it as failed", async () => {
    const funds = { type: "/problems/insufficient-funds", title: "Insufficient Funds", status: 403 };
    const { runtime, posted } = await setUp([() => ({ status: 403, body: funds })]);
    const result = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "r-403" }, asTrader);
    expect(result).toMatchObject({ status: 403, body: funds });
    expect(posted()).toHaveLength(1);
    expect(await journalEntryOfRef(runtime.db, "order", "r-403")).toMatchObject({ status: "failed", http_status: 403 });
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
    expect(await journalEntryOfRef(runtime.db, "transfer", "t-1")).toMatchObject({ status: "failed", profile_id: "a" });
  });
});

describe("a create that repeats one the same person sent moments ago", () => {
  const sendAll = (req: { body?: unknown }) => ({ body: orderRecord((req.body as { ref_id: string }).ref_id) });
  const problemOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((e) => e.problem);
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks before sending it, naming the earlier create and how many seconds ago it was sent", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-23T17:04:25.000Z") });
    const { runtime, posted } = await setUp([sendAll]);
    await createOrder(runtime, "trading", { ...limitBuy, ref_id: "first" }, asTrader);
    vi.setSystemTime(new Date("2026-11-23T17:04:28.200Z"));
    const asked = await problemOf(createOrder(runtime, "trading", { ...limitBuy, ref_id: "second" }, asTrader));
    expect(asked).toEqual({
      type: "/problems/possible-duplicate",
      title: "Possible Duplicate",
      status: 409,
      detail: "You sent this 3 s ago. Send another?",
      meta: {
        previous: { ref_id: "first", created_at: "2026-11-23T17:04:25.000Z", seconds_ago: 3 },
        confirm_header: "Confirm-Duplicate",
      },
    });
    expect(posted()).toHaveLength(1);
    expect(await journalEntryOfRef(runtime.db, "order", "second")).toBeUndefined();
  });

  it("sends it when the person confirms the earlier ref_id, and the journal records the answer", async () => {
    const { runtime, posted } = await setUp([sendAll]);
    await createOrder(runtime, "trading", { ...limitBuy, ref_id: "first" }, asTrader);
    const sent = await createOrder(
      runtime,
      "trading",
      { ...limitBuy, ref_id: "second" },
      { ...asTrader, confirmRepeatOf: "first" },
    );
    expect(sent.status).toBe(200);
    expect(posted()).toHaveLength(2);
    expect(await journalEntryOfRef(runtime.db, "order", "second")).toMatchObject({
      status: "succeeded",
      duplicate_of: "first",
    });
    expect(await journalEntryOfRef(runtime.db, "order", "first")).toMatchObject({ duplicate_of: null });
    // A third one is asked about the newest repeat: confirming the older one is not enough.
    const third = await problemOf(
      createOrder(runtime, "trading", { ...limitBuy, ref_id: "third" }, { ...asTrader, confirmRepeatOf: "first" }),
    );
    expect(third).toMatchObject({ status: 409, meta: { previous: { ref_id: "second" } } });
  });

  it("does not ask about a different request, profile, person or kind, a failed create, or after the window", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-23T17:00:00.000Z") });
    const funds = { type: "/problems/insufficient-funds", title: "Insufficient Funds", status: 403 };
    const { runtime, posted } = await setUp([
      sendAll,
      sendAll,
      sendAll,
      sendAll,
      () => ({ status: 403, body: funds }),
      sendAll,
      sendAll,
    ]);
    const order = (ref: string, extra = {}, profile = "trading", who = trader) =>
      createOrder(runtime, profile, { ...limitBuy, ...extra, ref_id: ref }, { user: who, ip: null });
    await order("a");
    await order("b", { base_amount: "0.02" });
    await order("c", {}, "treasury");
    await order("d", {}, "trading", { ...trader, email: "admin@example.com", role: "admin" });
    expect((await order("e", { price: "101.00" })).status).toBe(403);
    await order("f", { price: "101.00" }); // e failed: nothing to repeat
    vi.setSystemTime(new Date("2026-11-23T17:01:00.001Z"));
    await order("g"); // a was sent 60.001 s ago
    expect(posted()).toHaveLength(7);
  });

  it("answers a retry or replay of a journaled ref_id as before, never with the question", async () => {
    const { runtime, posted } = await setUp([sendAll]);
    await createOrder(runtime, "trading", { ...limitBuy, ref_id: "first" }, asTrader);
    await createOrder(runtime, "trading", { ...limitBuy, ref_id: "second" }, { ...asTrader, confirmRepeatOf: "first" });
    const replay = await createOrder(runtime, "trading", { ...limitBuy, ref_id: "second" }, asTrader);
    expect(replay).toMatchObject({ status: 200, body: { ref_id: "second" } });
    expect(posted()).toHaveLength(2);
  });

  it("sends one of ten identical orders sent at once, and asks about the other nine", async () => {
    const { runtime, posted } = await setUp([sendAll]);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        createOrder(runtime, "trading", { ...limitBuy, ref_id: `twin-${i}` }, asTrader).then(
          (r) => r.status,
          (e: { problem?: { status: number; title: string } }) => e.problem?.title ?? String(e),
        ),
      ),
    );
    expect(answers.filter((a) => a === 200)).toHaveLength(1);
    expect(answers.filter((a) => a === "Possible Duplicate")).toHaveLength(9);
    expect(posted()).toHaveLength(1);
  });

  it("asks about a transfer repeated while the first is still being sent", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const ops: SignedInUser = { ...trader, role: "ops" };
    const transfer = { from_profile_id: "a", to_profile_id: "b", asset: "USD", amount: "10" };
    const { runtime, posted } = await setUp([
      async (req) => {
        await held;
        return {
          body: {
            id: "t",
            profile_id: "a",
            asset: "USD",
            amount: "10",
            ref_id: (req.body as { ref_id: string }).ref_id,
          },
        };
      },
    ]);
    const first = createInternalTransfer(runtime, { ...transfer, ref_id: "t-1" }, { user: ops, ip: null });
    await vi.waitFor(() => expect(posted()).toHaveLength(1));
    const asked = await problemOf(
      createInternalTransfer(runtime, { ...transfer, ref_id: "t-2" }, { user: ops, ip: null }),
    );
    expect(asked).toMatchObject({ status: 409, title: "Possible Duplicate", meta: { previous: { ref_id: "t-1" } } });
    release();
    await first;
    expect(posted()).toHaveLength(1);
  });
});

describe("a create that repeats one held for approval", () => {
  const ops: SignedInUser = { email: "ops@example.com", name: "Oakley Ops", role: "ops" };
  const asOps = { user: ops, ip: null };
  // 20,000 USD: over the default policy's 10,000 USD, so held for an approver.
  const big = { from_profile_id: "treasury", to_profile_id: "settlement", asset: "USD", amount: "20000" };
  const problemOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((e) => e.problem);
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is asked about as a sent one is: two held twins could both be approved", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-23T17:04:25.000Z") });
    const { runtime, posted } = await setUp([() => ({ body: {} })]);
    expect(await createInternalTransfer(runtime, { ...big, ref_id: "held-1" }, asOps)).toMatchObject({ status: 202 });
    vi.setSystemTime(new Date("2026-11-23T17:04:27.000Z"));
    const asked = await problemOf(createInternalTransfer(runtime, { ...big, ref_id: "held-2" }, asOps));
    expect(asked).toMatchObject({
      status: 409,
      detail: "You asked for this 2 s ago; it awaits approval. Send another?",
      meta: { previous: { ref_id: "held-1", seconds_ago: 2, held: true } },
    });
    // A retry of the held ref_id is answered with its approval, never asked about.
    const retried = await createInternalTransfer(runtime, { ...big, ref_id: "held-1" }, asOps);
    expect(retried).toMatchObject({
      status: 202,
      body: { approval: { status: "PENDING", request: { ref_id: "held-1" } } },
    });
    // "Send another" holds a second request; "Don't send" about a third is journaled, naming the second.
    const again = await createInternalTransfer(
      runtime,
      { ...big, ref_id: "held-2" },
      { ...asOps, confirmRepeatOf: "held-1" },
    );
    expect(again).toMatchObject({ status: 202, body: { approval: { request: { ref_id: "held-2" } } } });
    const declined = await declineRepeat(runtime, ops, {
      kind: "transfer",
      request: { ...big, ref_id: "held-3" },
      duplicate_of: "held-2",
    });
    expect(declined).toMatchObject({ status: "declined", ref_id: "held-3", duplicate_of: "held-2" });
    expect(posted()).toHaveLength(0);
  });
});

describe('declineRepeat ("Don\'t send")', () => {
  const sendAll = (req: { body?: unknown }) => ({ body: orderRecord((req.body as { ref_id: string }).ref_id) });
  const answer = (ref: string, repeatOf = "first") => ({
    kind: "order",
    profile_id: "trading",
    request: { ...limitBuy, ref_id: ref },
    duplicate_of: repeatOf,
  });

  it("journals the create that was not sent, once, and its ref_id can never be sent", async () => {
    const { runtime, posted } = await setUp([sendAll]);
    await createOrder(runtime, "trading", { ...limitBuy, ref_id: "first" }, asTrader);
    const declined = await declineRepeat(runtime, trader, answer("second"));
    expect(declined).toMatchObject({
      kind: "order",
      ref_id: "second",
      status: "declined",
      duplicate_of: "first",
      user_email: "trader@example.com",
      profile_id: "trading",
      http_status: null,
      request: { ...limitBuy, ref_id: "second" },
    });
    expect(declined.completed_at).toBe(declined.created_at);
    expect(await declineRepeat(runtime, trader, answer("second"))).toEqual(declined);
    expect(posted()).toHaveLength(1);
    const sendIt = await createOrder(
      runtime,
      "trading",
      { ...limitBuy, ref_id: "second" },
      { ...asTrader, confirmRepeatOf: "first" },
    )
      .then(() => undefined)
      .catch((e) => e.problem);
    expect(sendIt).toMatchObject({ status: 409, title: "Declined" });
    expect(posted()).toHaveLength(1);
  });

  it("refuses an answer from a role that may not send it, about a create the person never sent, or malformed", async () => {
    const { runtime } = await setUp([sendAll]);
    await createOrder(runtime, "trading", { ...limitBuy, ref_id: "first" }, asTrader);
    const refusal = (who: typeof trader, input: unknown) =>
      declineRepeat(runtime, who, input)
        .then(() => undefined)
        .catch((e) => e.problem);
    expect(await refusal({ ...trader, role: "viewer" }, answer("x"))).toMatchObject({ status: 403 });
    expect(await refusal({ ...trader, email: "admin@example.com", role: "admin" }, answer("x"))).toMatchObject({
      status: 404,
    });
    expect(await refusal(trader, answer("x", "never-sent"))).toMatchObject({ status: 404 });
    expect(await refusal(trader, { ...answer("x"), request: { ...limitBuy, price: "-1", ref_id: "x" } })).toMatchObject(
      {
        status: 400,
        meta: { errors: [{ field: "price" }] },
      },
    );
    expect(await refusal(trader, { ...answer("x"), profile_id: undefined })).toMatchObject({ status: 400 });
    expect((await listEntries(runtime.db)).items).toHaveLength(1);
  });
});

describe("one request per ref_id, forever", () => {
  const ops: SignedInUser = { email: "ops@example.com", name: "Oakley Ops", role: "ops" };
  const admin: SignedInUser = { email: "admin@example.com", name: "Avery Admin", role: "admin" };
  const notFound = { type: "about:blank", title: "Not Found", status: 404, detail: "profile not found" };
  const problemOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((e) => e.problem);

  it("refuses anyone's different request under a failed order's ref_id, and sends the same one again through the controls", async () => {
    const { runtime, posted } = await setUp([
      () => ({ status: 404, body: notFound }),
      (req) => ({ body: orderRecord((req.body as { ref_id: string }).ref_id) }),
    ]);
    const failed = await createOrder(runtime, "nowhere", { ...limitBuy, ref_id: "f-1" }, asTrader);
    expect(failed.status).toBe(404);
    expect(await journalEntryOfRef(runtime.db, "order", "f-1")).toMatchObject({ status: "failed" });
    // A 150,000 USD order under the failed ref_id: a different request.
    const bigger = await problemOf(
      createOrder(runtime, "trading", { ...limitBuy, base_amount: "1500", ref_id: "f-1" }, asTrader),
    );
    expect(bigger).toMatchObject({ status: 409, meta: { ref_id: "f-1", errors: [{ field: "ref_id" }] } });
    // The same order to another profile, or by someone else, is not this request either.
    expect(await problemOf(createOrder(runtime, "trading", { ...limitBuy, ref_id: "f-1" }, asTrader))).toMatchObject({
      status: 409,
    });
    const byAdmin = { user: admin, ip: null };
    expect(await problemOf(createOrder(runtime, "nowhere", { ...limitBuy, ref_id: "f-1" }, byAdmin))).toMatchObject({
      status: 409,
    });
    expect(posted()).toHaveLength(1);
    // The same request by the same person is a retry, weighed by the controls again: a limit set since refuses it.
    const strict = {
      ...DEFAULT_POLICY,
      limits: { ...DEFAULT_POLICY.limits, max_order_notional_usd: { trader: "0.5" } },
    };
    await runtime.db
      .insertInto("policy")
      .values({ id: 1, document_json: JSON.stringify(strict), updated_at: "", updated_by: "test" })
      .execute();
    expect(await problemOf(createOrder(runtime, "nowhere", { ...limitBuy, ref_id: "f-1" }, asTrader))).toMatchObject({
      status: 403,
      meta: { rule: "max_order_notional_usd" },
    });
    expect(posted()).toHaveLength(1);
    await runtime.db.deleteFrom("policy").execute();
    expect((await createOrder(runtime, "nowhere", { ...limitBuy, ref_id: "f-1" }, asTrader)).status).toBe(200);
    expect(posted()).toHaveLength(2);
    expect(await journalEntryOfRef(runtime.db, "order", "f-1")).toMatchObject({
      status: "succeeded",
      request: { ...limitBuy, ref_id: "f-1" },
    });
  });

  it("holds a 20,000 USD transfer sent again under a failed 1 USD transfer's ref_id? No: it is refused as a different request", async () => {
    const { runtime, posted } = await setUp([() => ({ status: 404, body: notFound })]);
    const small = { from_profile_id: "treasury", to_profile_id: "nowhere", asset: "USD", amount: "1", ref_id: "t-f" };
    expect((await createInternalTransfer(runtime, small, { user: ops, ip: null })).status).toBe(404);
    for (const [request, who] of [
      [{ ...small, amount: "20000" }, ops],
      [{ ...small, to_profile_id: "settlement", amount: "20000" }, ops],
      [{ ...small, amount: "20000" }, admin],
    ] as const) {
      expect(await problemOf(createInternalTransfer(runtime, request, { user: who, ip: null }))).toMatchObject({
        status: 409,
        meta: { ref_id: "t-f" },
      });
    }
    expect(posted()).toHaveLength(1);
    expect(await runtime.db.selectFrom("approvals").selectAll().execute()).toEqual([]);
  });

  it("refuses another person's request under a held ref_id", async () => {
    const { runtime } = await setUp([() => ({ body: {} })]);
    const big = {
      from_profile_id: "treasury",
      to_profile_id: "settlement",
      asset: "USD",
      amount: "20000",
      ref_id: "h",
    };
    expect((await createInternalTransfer(runtime, big, { user: ops, ip: null })).status).toBe(202);
    expect(await problemOf(createInternalTransfer(runtime, big, { user: admin, ip: null }))).toMatchObject({
      status: 409,
    });
    expect(
      await problemOf(createInternalTransfer(runtime, { ...big, amount: "30000" }, { user: ops, ip: null })),
    ).toMatchObject({ status: 409 });
  });
});

describe('a forged "Don\'t send"', () => {
  const ops: SignedInUser = { email: "ops@example.com", name: "Oakley Ops", role: "ops" };
  const colleague: SignedInUser = { ...ops, email: "ops2@example.com" };
  const refusal = (promise: Promise<unknown>) => promise.then(() => undefined).catch((e) => e.problem);
  const big = (ref_id: string, extra = {}) => ({
    from_profile_id: "treasury",
    to_profile_id: "settlement",
    asset: "USD",
    amount: "20000",
    ref_id,
    ...extra,
  });

  it("is refused under someone else's held ref_id or for a request that repeats nothing of the caller's", async () => {
    const { runtime } = await setUp([(req) => ({ body: { id: "t", ...(req.body as object) } })]);
    expect((await createInternalTransfer(runtime, big("victim"), { user: ops, ip: null })).status).toBe(202);
    expect(
      (await createInternalTransfer(runtime, big("mine", { amount: "5" }), { user: colleague, ip: null })).status,
    ).toBe(200);
    // The colleague's own create as duplicate_of, the victim's held request as the one "not sent".
    expect(
      await refusal(
        declineRepeat(runtime, colleague, { kind: "transfer", request: big("victim"), duplicate_of: "mine" }),
      ),
    ).toMatchObject({ status: 400, meta: { errors: [{ field: "request" }] } });
    // Even as a true repeat of their own, the ref_id must be new.
    expect(
      await refusal(
        declineRepeat(runtime, colleague, {
          kind: "transfer",
          request: big("victim", { amount: "5" }),
          duplicate_of: "mine",
        }),
      ),
    ).toMatchObject({ status: 409, meta: { ref_id: "victim" } });
    expect(await journalEntryOfRef(runtime.db, "transfer", "victim")).toBeUndefined();
    const actions = await runtime.db.selectFrom("audit").select("action").execute();
    expect(actions.map((a) => a.action)).not.toContain("create.declined");
  });

  it("is audited when it is the caller's own repeat", async () => {
    const { runtime } = await setUp([(req) => ({ body: { id: "t", ...(req.body as object) } })]);
    await createInternalTransfer(runtime, big("first", { amount: "5" }), { user: ops, ip: null });
    await declineRepeat(runtime, ops, {
      kind: "transfer",
      request: big("second", { amount: "5" }),
      duplicate_of: "first",
    });
    const audit = await runtime.db.selectFrom("audit").selectAll().where("action", "=", "create.declined").execute();
    expect(audit).toEqual([expect.objectContaining({ actor_email: "ops@example.com", subject: "second" })]);
  });
});
