import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, signOut, startApp, type AppServer } from "../../support/app-server";
import {
  eventually,
  freshPostgresDatabase,
  newRef,
  SERVICE_TIMEOUT_MS,
  smallOrder,
  startDashboard,
  TRADING,
  TREASURY,
  type Client,
  type Dashboard,
} from "../../support/dashboard";
import { openStream, type OpenStream } from "../../support/event-stream";
import { startFaultProxy, type FaultProxy } from "../../support/fault-proxy";
import { sandboxClient, startSandboxServer, type SandboxServer } from "../../support/sandbox-server";

/**
 * GET /api/events over real HTTP: the session it needs, what each role's stream carries, a
 * create pushed to other users at once; and two instances on one PostgreSQL behaving as one.
 */

const orderWith = (ref: string) => (e: { event: string; data: any }) => e.event === "order" && e.data.ref_id === ref;

describe("GET /api/events on one instance", () => {
  let d: Dashboard;
  const streams: OpenStream[] = [];
  beforeAll(async () => {
    // Its own server, not the shared one: counts the watcher's reads at the proxy.
    d = await startDashboard();
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await d?.dispose();
  });

  it("refuses a caller without a session (401 problem) and a bad screen (400 naming the field)", async () => {
    const anonymous = await openStream(d.url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.contentType).toContain("application/problem+json");
    const bad = await openStream(d.url, d.as.viewer.cookie(), "?markets=NOPE");
    expect(bad.status).toBe(400);
    expect(bad.text()).toContain("markets");
  });

  it("pushes an order placed by the trader to the viewer's and ops' streams", async () => {
    const viewer = await openStream(d.url, d.as.viewer.cookie(), `?profiles=${TRADING}&markets=ETHUSD`);
    const ops = await openStream(d.url, d.as.ops.cookie());
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
    const viewer = await openStream(d.url, d.as.viewer.cookie(), `?profiles=${TRADING}&markets=ETHUSD`);
    const plain = await openStream(d.url, d.as.approver.cookie());
    streams.push(viewer, plain);
    const balances = await viewer.next((e) => e.event === "balances" && e.data.profile_id === TRADING, 5_000);
    expect(Array.isArray(balances.data.items)).toBe(true);
    await viewer.next((e) => e.event === "ticker" && e.data.market === "ETHUSD", 5_000);
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
    const viewer = await openStream(d.url, d.as.viewer.cookie());
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
async function openedStream(base: string, cookie: string, query = ""): Promise<OpenStream> {
  const stream = await openStream(base, cookie, query);
  expect(stream.status, stream.text()).toBe(200);
  await eventually(async () => (stream.text().includes("retry:") ? true : undefined), 5_000, "retry line");
  return stream;
}

/** Issue 16, finding 12: the stream ends with its session, and what it may ask for is bounded. */
describe("GET /api/events ends with its session and is bounded", () => {
  let d: Dashboard;
  const streams: OpenStream[] = [];
  beforeAll(async () => {
    d = await startDashboard();
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await d?.dispose();
  });

  it("closes the stream at its session's sign-out, and the cookie opens no other", async () => {
    const viewer = await signIn({ url: d.url }, "viewer@example.com");
    const stream = await openedStream(d.url, viewer.cookie());
    streams.push(stream);
    await signOut({ url: d.url }, viewer.cookie());
    await stream.ended;
    expect(stream.endedByServer(), "the server ended it").toBe(true);
    expect((await openStream(d.url, viewer.cookie())).status).toBe(401);
  });

  it("closes the stream at an admin's revocation", async () => {
    const ops = await signIn({ url: d.url }, "ops@example.com");
    const stream = await openedStream(d.url, ops.cookie());
    streams.push(stream);
    const id = await newestSession(d.as.admin, "ops@example.com");
    expect((await d.as.admin.call("DELETE", `/api/sessions/${id}`)).status).toBe(200);
    await stream.ended;
    expect(stream.endedByServer(), "the server ended it").toBe(true);
    expect((await ops.call("GET", "/api/approvals")).status).toBe(401);
  });

  it("opens at most 10 streams per person: the 11th is a 429 problem, and a closed one frees its place", async () => {
    const trader = await signIn({ url: d.url }, "trader@example.com");
    const other = await signIn({ url: d.url }, "trader@example.com");
    const ten: OpenStream[] = [];
    // Across the person's sessions: five on each.
    for (let i = 0; i < 10; i++) ten.push(await openedStream(d.url, (i % 2 ? trader : other).cookie()));
    streams.push(...ten);
    const eleventh = await openStream(d.url, trader.cookie());
    expect(eleventh.status).toBe(429);
    expect(eleventh.contentType).toContain("application/problem+json");
    expect(JSON.parse(eleventh.text())).toMatchObject({ status: 429, meta: { limit: 10 } });
    // Someone else is not counted against the trader.
    streams.push(await openedStream(d.url, d.as.viewer.cookie()));
    ten[0]!.close();
    const again = await eventually(
      async () => {
        const s = await openStream(d.url, trader.cookie());
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

  it("refuses profiles the service does not have: a 400 naming profiles", async () => {
    const unknown = "00000000-0000-4000-8000-00000000dead";
    const res = await openStream(d.url, d.as.viewer.cookie(), `?profiles=${TRADING}&profiles=${unknown}`);
    expect(res.status).toBe(400);
    const problem = JSON.parse(res.text());
    expect(problem.meta.errors).toEqual([expect.objectContaining({ field: "profiles" })]);
    expect(problem.detail).toContain(unknown);
  });

  it("reads each profile once per look, however many streams name it", async () => {
    const named = await Promise.all(
      Array.from({ length: 5 }, () => openedStream(d.url, d.as.approver.cookie(), `?profiles=${TREASURY}`)),
    );
    streams.push(...named);
    for (const s of named) await s.next((e) => e.event === "balances" && e.data.profile_id === TREASURY, 5_000);
    const balances = { method: "GET", path: `/sandbox/v2/profiles/${TREASURY}/balances` } as const;
    // A look of the watcher reads the orders of its time window once.
    const windowReads = () =>
      d.proxy.requests.filter((r) => r.path === "/sandbox/v2/orders" && r.search.includes("order_time.begin")).length;
    const readsBefore = d.proxy.count(balances);
    const looksBefore = windowReads();
    // Twelve looks of the watcher: it reads balances every second look.
    await expect.poll(() => windowReads() - looksBefore, { timeout: 15_000 }).toBeGreaterThanOrEqual(12);
    const looks = windowReads() - looksBefore;
    const reads = d.proxy.count(balances) - readsBefore;
    expect(reads).toBeGreaterThanOrEqual(Math.floor(looks / 2) - 1);
    expect(reads).toBeLessThanOrEqual(Math.ceil(looks / 2) + 1);
    for (const s of named) s.close();
  });
});

describe("two instances on one PostgreSQL", () => {
  let sandbox: SandboxServer;
  let proxy: FaultProxy;
  let a: AppServer;
  let b: AppServer;
  let databaseUrl: string;
  const streams: OpenStream[] = [];

  beforeAll(async () => {
    sandbox = await startSandboxServer();
    proxy = await startFaultProxy();
    proxy.setTarget(Number(new URL(sandbox.url).port));
    databaseUrl = await freshPostgresDatabase();
    const env = {
      ...proxy.env(),
      SERVICE_TIMEOUT_MS: String(SERVICE_TIMEOUT_MS),
      DATABASE_URL: databaseUrl,
    };
    [a, b] = await Promise.all([startApp(env), startApp(env)]);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await Promise.all([a?.dispose(), b?.dispose()]);
    await proxy?.close();
    await sandbox?.close();
  });

  /** The process id holding the watcher's advisory lock, from PostgreSQL itself. */
  async function leaderPid(): Promise<number | undefined> {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE 'dashboard watcher %'`,
      );
      return rows[0] ? Number(rows[0].name.split(" ").at(-1)) : undefined;
    } finally {
      await client.end();
    }
  }

  it("delivers an order placed on A to a stream on B, with one watcher's reads for both", async () => {
    const viewerB = await signIn(b, "viewer@example.com");
    const viewerA = await signIn(a, "viewer@example.com");
    const onB = await openStream(b.url, viewerB.cookie());
    streams.push(onB);
    await eventually(async () => ((await leaderPid()) === b.process.pid ? true : undefined), 5_000, "B to lead");
    const onA = await openStream(a.url, viewerA.cookie());
    streams.push(onA);

    const trader = await signIn(a, "trader@example.com");
    const ref = newRef("live-pg");
    const res = await trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(res.status).toBe(200);
    await onB.next(orderWith(ref));
    await onA.next(orderWith(ref));

    // Streams open on both instances: the service is read by one watcher, whose reads all carry
    // one instance's token (each instance has its own).
    const lists = { method: "GET", path: "/sandbox/v2/orders" } as const;
    const since = proxy.requests.length;
    await proxy.waitFor(lists, 8, { since, timeoutMs: 30_000 });
    const readers = new Set(
      proxy.requests
        .slice(since)
        .filter((r) => r.method === lists.method && r.path === lists.path)
        .map((r) => r.bearer),
    );
    expect(readers.size).toBe(1);
  });

  it("closes a stream on B at a revocation made on A, and B refuses the session at once", async () => {
    const onB = await signIn(b, "ops@example.com");
    const stream = await openedStream(b.url, onB.cookie());
    streams.push(stream);
    expect((await onB.call("GET", "/api/approvals")).status).toBe(200);
    const admin = await signIn(a, "admin@example.com");
    const id = await newestSession(admin, "ops@example.com");
    expect((await admin.call("DELETE", `/api/sessions/${id}`)).status).toBe(200);
    await stream.ended;
    expect(stream.endedByServer(), "B's server ended it").toBe(true);
    expect((await onB.call("GET", "/api/approvals")).status).toBe(401);
  });

  it("hands the watcher over when the leader is killed", async () => {
    const leader = await leaderPid();
    expect(leader).toBe(b.process.pid);
    await b.stop("SIGKILL");
    await eventually(async () => ((await leaderPid()) === a.process.pid ? true : undefined), 30_000, "A to lead");

    // A's watcher now sees what happens at the service: an order placed there directly, once
    // it has looked twice (what it saw before the order is its baseline).
    const viewerA = await signIn(a, "viewer@example.com");
    const onA = await openedStream(a.url, viewerA.cookie());
    streams.push(onA);
    await proxy.waitFor({ method: "GET", path: "/sandbox/v2/orders" }, 2, { since: proxy.requests.length });
    const ref = newRef("live-direct");
    const direct = await sandboxClient(sandbox.url).call("POST", `/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(direct.status).toBeLessThan(300);
    await onA.next(orderWith(ref));
  });
});
