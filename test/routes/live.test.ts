import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, type Target } from "../support/app-server";
import {
  eventually,
  inProcessDashboard,
  newRef,
  smallOrder,
  TRADING,
  TREASURY,
  type Client,
  type InProcessDashboard,
} from "../support/dashboard";
import { WATCH_EVERY_MS } from "@/lib/server/live/watcher";
import { openStream, type OpenStream } from "../support/event-stream";

/**
 * GET /api/events, its route handler called in process: the session it needs, what each role's
 * stream carries, a create pushed to other users at once, the stream ending with its session
 * and bounded. The watcher's reads are counted at the faults in front of the sandbox. Two
 * instances on one PostgreSQL: test/integration/process/two-instances.test.ts; a sign-out
 * through next-auth ending a stream: test/integration/app/http.test.ts.
 */

const orderWith = (ref: string) => (e: { event: string; data: any }) => e.event === "order" && e.data.ref_id === ref;

describe("GET /api/events on one instance", () => {
  let d: InProcessDashboard;
  const streams: OpenStream[] = [];
  beforeAll(async () => {
    d = await inProcessDashboard();
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await d?.dispose();
  });

  it("refuses a caller without a session (401 problem) and a bad screen (400 naming the field)", async () => {
    const anonymous = await openStream(d.target);
    expect(anonymous.status).toBe(401);
    expect(anonymous.contentType).toContain("application/problem+json");
    const bad = await openStream(d.target, d.as.viewer.cookie(), "?markets=NOPE");
    expect(bad.status).toBe(400);
    expect(bad.text()).toContain("markets");
  });

  it("pushes an order placed by the trader to the viewer's and ops' streams", async () => {
    const viewer = await openStream(d.target, d.as.viewer.cookie(), `?profiles=${TRADING}&markets=ETHUSD`);
    const ops = await openStream(d.target, d.as.ops.cookie());
    streams.push(viewer, ops);
    expect(viewer.status).toBe(200);
    expect(viewer.contentType).toContain("text/event-stream");
    await eventually(async () => (viewer.text().includes("retry:") ? true : undefined), 5_000, "retry line");

    // How fast it arrives is bench:push's figure (test/bench/push.ts).
    const ref = newRef("live");
    const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(res.status).toBe(200);
    const got = await viewer.next(orderWith(ref));
    expect(got.data).toMatchObject({ id: res.body.id, profile_id: TRADING, market: "ETHUSD" });
    expect(got.id).toMatch(/^\d+$/);
    await ops.next(orderWith(ref));
  });

  it("sends balances and tickers only to the screens that show them", async () => {
    const viewer = await openStream(d.target, d.as.viewer.cookie(), `?profiles=${TRADING}&markets=ETHUSD`);
    const plain = await openStream(d.target, d.as.approver.cookie());
    streams.push(viewer, plain);
    const balances = await viewer.next((e) => e.event === "balances" && e.data.profile_id === TRADING);
    expect(Array.isArray(balances.data.items)).toBe(true);
    await viewer.next((e) => e.event === "ticker" && e.data.market === "ETHUSD");
    // An order event goes to every screen, after whatever was sent before it: once the plain
    // screen has it, a balance or ticker meant for it too would have come first.
    const ref = newRef("live-screens");
    const res = await d.as.trader.call(
      "POST",
      `/api/v2/profiles/${TRADING}/orders`,
      smallOrder(ref, { base_amount: "0.03" }),
    );
    expect(res.status).toBe(200);
    await plain.next(orderWith(ref));
    expect(plain.events.filter((e) => e.event === "balances" || e.event === "ticker")).toEqual([]);
  });

  it("pushes a change the watcher sees at the service: a cancel made outside the dashboard", async () => {
    const viewer = await openStream(d.target, d.as.viewer.cookie());
    streams.push(viewer);
    const ref = newRef("live-cancel");
    // Another amount: the same order again within a minute would be asked about as a repeat.
    const res = await d.as.trader.call(
      "POST",
      `/api/v2/profiles/${TRADING}/orders`,
      smallOrder(ref, { base_amount: "0.02" }),
    );
    await viewer.next(orderWith(ref));
    const cancel = await d.sandbox.call("DELETE", `/profiles/${TRADING}/orders/${res.body.id}`);
    expect(cancel.status).toBeLessThan(300);
    const cancelled = await viewer.next((e) => orderWith(ref)(e) && e.data.status === "CANCELLED");
    expect(cancelled.data.id).toBe(res.body.id);
  });
});

/** The newest live session of `email`, as an admin of `app` lists them. */
async function newestSession(admin: Client, email: string): Promise<string> {
  const res = await admin.call("GET", "/api/sessions");
  expect(res.status).toBe(200);
  const mine = (res.body.items as { id: string; user_email: string; started_at: string }[])
    .filter((s) => s.user_email === email)
    .sort((a, b) => b.started_at.localeCompare(a.started_at));
  return mine[0]!.id;
}

/** A stream that says it is open (its `retry:` line came). */
async function openedStream(base: Target, cookie: string, query = ""): Promise<OpenStream> {
  const stream = await openStream(base, cookie, query);
  expect(stream.status, stream.text()).toBe(200);
  await eventually(async () => (stream.text().includes("retry:") ? true : undefined), 5_000, "retry line");
  return stream;
}

/** A full garbage collection now, as `node --expose-gc` offers it. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** Issue 16, finding 12: the stream ends with its session, and what it may ask for is bounded. */
describe("GET /api/events ends with its session and is bounded", () => {
  let d: InProcessDashboard;
  const streams: OpenStream[] = [];
  beforeAll(async () => {
    d = await inProcessDashboard();
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await d?.dispose();
  });

  it("closes the stream at an admin's revocation", async () => {
    const ops = await signIn(d.target, "ops@example.com");
    const stream = await openedStream(d.target, ops.cookie());
    streams.push(stream);
    const id = await newestSession(d.as.admin, "ops@example.com");
    expect((await d.as.admin.call("DELETE", `/api/sessions/${id}`)).status).toBe(200);
    await stream.ended;
    expect(stream.endedByServer(), "the server ended it").toBe(true);
    expect((await ops.call("GET", "/api/approvals")).status).toBe(401);
  });

  it("opens at most 10 streams per person: the 11th is a 429 problem, and a closed one frees its place", async () => {
    const trader = await signIn(d.target, "trader@example.com");
    const other = await signIn(d.target, "trader@example.com");
    const ten: OpenStream[] = [];
    // Across the person's sessions: five on each.
    for (let i = 0; i < 10; i++) ten.push(await openedStream(d.target, (i % 2 ? trader : other).cookie()));
    streams.push(...ten);
    const eleventh = await openStream(d.target, trader.cookie());
    expect(eleventh.status).toBe(429);
    expect(eleventh.contentType).toContain("application/problem+json");
    expect(JSON.parse(eleventh.text())).toMatchObject({ status: 429, meta: { limit: 10 } });
    // Someone else is not counted against the trader.
    streams.push(await openedStream(d.target, d.as.viewer.cookie()));
    ten[0]!.close();
    const again = await eventually(
      async () => {
        const s = await openStream(d.target, trader.cookie());
        if (s.status === 200) return s;
        s.close();
        return undefined;
      },
      5_000,
      "a place to free up",
    );
    streams.push(again);
    for (const s of ten) s.close();
  });

  it("frees a place the moment its stream is closed, after a garbage collection too", async () => {
    // A person of their own (their count spans their sessions), with no stream open yet.
    const approver = await signIn(d.target, "approver@example.com");
    const ten: OpenStream[] = [];
    for (let i = 0; i < 10; i++) ten.push(await openedStream(d.target, approver.cookie()));
    streams.push(...ten);
    // The requests were made turns ago: nothing but their caller's signals holds them now. A
    // Request collected here would no longer pass its caller's abort on to the route.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    ten[0]!.close();
    const again = await openStream(d.target, approver.cookie());
    streams.push(again);
    expect(again.status, again.text()).toBe(200);
    for (const s of [...ten, again]) s.close();
  });

  it("refuses profiles the service does not have: a 400 naming profiles", async () => {
    const unknown = "00000000-0000-4000-8000-00000000dead";
    const res = await openStream(d.target, d.as.viewer.cookie(), `?profiles=${TRADING}&profiles=${unknown}`);
    expect(res.status).toBe(400);
    const problem = JSON.parse(res.text());
    expect(problem.meta.errors).toEqual([expect.objectContaining({ field: "profiles" })]);
    expect(problem.detail).toContain(unknown);
  });

  it("reads each profile once per look, however many streams name it", async () => {
    const named = await Promise.all(
      Array.from({ length: 5 }, () => openedStream(d.target, d.as.approver.cookie(), `?profiles=${TREASURY}`)),
    );
    streams.push(...named);
    for (const s of named) await s.next((e) => e.event === "balances" && e.data.profile_id === TREASURY);
    const balances = { method: "GET", path: `/sandbox/v2/profiles/${TREASURY}/balances` } as const;
    // A look of the watcher reads the orders of its time window once.
    const windowReads = () =>
      d.proxy.requests.filter((r) => r.path === "/sandbox/v2/orders" && r.search.includes("order_time.begin")).length;
    const readsBefore = d.proxy.count(balances);
    const looksBefore = windowReads();
    // Twelve looks of the watcher, its clock moved a look's period at a time: it reads balances every second look.
    while (windowReads() - looksBefore < 12) {
      const seen = windowReads();
      d.app.clock.advance(WATCH_EVERY_MS);
      await expect.poll(windowReads).toBeGreaterThan(seen);
    }
    const looks = windowReads() - looksBefore;
    const reads = d.proxy.count(balances) - readsBefore;
    expect(reads).toBeGreaterThanOrEqual(Math.floor(looks / 2) - 1);
    expect(reads).toBeLessThanOrEqual(Math.ceil(looks / 2) + 1);
    for (const s of named) s.close();
  });
});
