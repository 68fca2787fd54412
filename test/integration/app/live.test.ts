import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startApp, type AppServer } from "../../support/app-server";
import {
  eventually,
  freshPostgresDatabase,
  newRef,
  SERVICE_TIMEOUT_MS,
  smallOrder,
  startDashboard,
  TRADING,
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

  it("pushes an order placed by the trader to the viewer's and ops' streams within a second or two", async () => {
    const viewer = await openStream(d.url, d.as.viewer.cookie(), `?profiles=${TRADING}&markets=ETHUSD`);
    const ops = await openStream(d.url, d.as.ops.cookie());
    streams.push(viewer, ops);
    expect(viewer.status).toBe(200);
    expect(viewer.contentType).toContain("text/event-stream");
    await eventually(async () => (viewer.text().includes("retry:") ? true : undefined), 5_000, "retry line");

    const ref = newRef("live");
    const placed = performance.now();
    const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(res.status).toBe(200);
    const got = await viewer.next(orderWith(ref), 2_000);
    expect(got.data).toMatchObject({ id: res.body.id, profile_id: TRADING, market: "ETHUSD" });
    expect(got.id).toMatch(/^\d+$/);
    expect(got.at - placed).toBeLessThan(2_000);
    await ops.next(orderWith(ref), 2_000);
  });

  it("sends balances and tickers only to the screens that show them", async () => {
    const viewer = await openStream(d.url, d.as.viewer.cookie(), `?profiles=${TRADING}&markets=ETHUSD`);
    const plain = await openStream(d.url, d.as.approver.cookie());
    streams.push(viewer, plain);
    const balances = await viewer.next((e) => e.event === "balances" && e.data.profile_id === TRADING, 5_000);
    expect(Array.isArray(balances.data.items)).toBe(true);
    await viewer.next((e) => e.event === "ticker" && e.data.market === "ETHUSD", 5_000);
    await new Promise((r) => setTimeout(r, 1_500));
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
    await viewer.next(orderWith(ref), 2_000);
    const cancel = await d.sandbox.call("DELETE", `/profiles/${TRADING}/orders/${res.body.id}`);
    expect(cancel.status).toBeLessThan(300);
    const cancelled = await viewer.next((e) => orderWith(ref)(e) && e.data.status === "CANCELLED", 4_000);
    expect(cancelled.data.id).toBe(res.body.id);
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
    await onB.next(orderWith(ref), 2_000);
    await onA.next(orderWith(ref), 2_000);

    // Streams open on both instances: the service is read by one watcher, about twice a second
    // (two watchers would read about 16 times in these 4 s).
    const lists = { method: "GET", path: "/sandbox/v2/orders" } as const;
    const before = proxy.count(lists);
    await new Promise((r) => setTimeout(r, 4_000));
    const reads = proxy.count(lists) - before;
    expect(reads).toBeGreaterThanOrEqual(4);
    expect(reads).toBeLessThanOrEqual(11);
  });

  it("hands the watcher over within 5 s when the leader is killed", async () => {
    const leader = await leaderPid();
    expect(leader).toBe(b.process.pid);
    await b.stop("SIGKILL");
    const killed = performance.now();
    await eventually(async () => ((await leaderPid()) === a.process.pid ? true : undefined), 5_000, "A to lead");
    expect(performance.now() - killed).toBeLessThan(5_000);

    // A's watcher now sees what happens at the service: an order placed there directly.
    const viewerA = await signIn(a, "viewer@example.com");
    const onA = await openStream(a.url, viewerA.cookie());
    streams.push(onA);
    await new Promise((r) => setTimeout(r, 1_500));
    const ref = newRef("live-direct");
    const direct = await sandboxClient(sandbox.url).call("POST", `/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(direct.status).toBeLessThan(300);
    await onA.next(orderWith(ref), 4_000);
  });
});
