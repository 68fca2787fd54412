import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startApp, type AppServer } from "../../support/app-server";
import {
  eventually,
  expectProblem,
  freshPostgresDatabase,
  newRef,
  rawCall,
  SERVICE_TIMEOUT_MS,
  SETTLEMENT,
  smallOrder,
  smallTransfer,
  startDashboard,
  TRADING,
  TREASURY,
  type OwnDashboard,
  type Database as Engine,
} from "../../support/dashboard";
import { openStream, type OpenStream } from "../../support/event-stream";
import { startFaultProxy, type FaultProxy } from "../../support/fault-proxy";
import { startSandboxServer, type SandboxServer } from "../../support/sandbox-server";

/**
 * SIGTERM, as every rolling deploy sends it: readiness turns 503, new requests are refused with
 * a 503 problem, what is in flight finishes (creates with their journal entries), open streams
 * end with a retry hint, the leader's lock goes to another instance, and the process exits 0.
 */

const GRACE_SECONDS = 20;

/** Resolves with the exit code (null when killed by a signal) and the time it took from now. */
function exitOf(app: AppServer): Promise<{ code: number | null; ms: number }> {
  const sent = performance.now();
  return new Promise((resolve) => {
    const done = () => resolve({ code: app.process.exitCode, ms: performance.now() - sent });
    if (app.process.exitCode !== null || app.process.signalCode !== null) done();
    else app.process.once("exit", done);
  });
}

/** Journal entries still pending, read from the stopped app's own database. */
async function pendingEntries(d: OwnDashboard, engine: Engine): Promise<number> {
  if (engine === "sqlite") {
    const db = new Database(join(d.app.dataDir, "dashboard.db"), { readonly: true });
    try {
      return (db.prepare("SELECT count(*) AS n FROM journal WHERE status = 'pending'").get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: d.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM journal WHERE status = 'pending'");
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

describe("SIGTERM while a create is in flight", () => {
  let d: OwnDashboard;
  const streams: OpenStream[] = [];
  beforeAll(async () => {
    // Its own server, not the shared one: signals the app.
    d = await startDashboard({ env: { SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) } });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await d?.dispose();
  });

  it("turns readiness 503, refuses new requests, ends streams with a retry hint, finishes the create and exits 0", async () => {
    const stream = await openStream(d.url, d.as.viewer.cookie());
    streams.push(stream);
    expect(stream.status).toBe(200);
    const ref = newRef("drain");
    // The service takes its time with this create: it is still in flight when SIGTERM comes.
    const since = d.proxy.requests.length;
    d.proxy.fail({ method: "POST", path: /\/orders$/ }, { kind: "delay", ms: SERVICE_TIMEOUT_MS - 500 }, 1);
    const create = d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    await d.proxy.waitFor({ method: "POST", path: /\/orders$/ }, 1, { since });
    const exit = exitOf(d.app);
    d.app.process.kill("SIGTERM");

    const ready = await eventually(async () => {
      const r = await rawCall(d.url, "GET", "/api/ready");
      return r.status === 503 ? r : undefined;
    });
    expect(ready.body).toEqual({ status: "not ready", checks: { shutdown: "this instance is shutting down" } });
    // Liveness holds while it drains: the orchestrator must not kill it early.
    expect((await rawCall(d.url, "GET", "/api/health")).status).toBe(200);
    const refused = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef("late")));
    expect(expectProblem(refused, 503).meta).toEqual({ reason: "shutting_down" });
    await eventually(async () => (stream.endedByServer() ? true : undefined), 5_000, "the stream to end");
    expect(stream.text().split(": open")[1]).toMatch(/retry: \d+\n/);

    const answered = await create;
    expect(answered.status).toBe(200);
    const { code } = await exit;
    // 0, not 1: everything in flight finished before the grace period ran out (lib/server/ops/shutdown.ts).
    expect(code).toBe(0);
    expect(await pendingEntries(d, "sqlite")).toBe(0);
    expect(d.app.log()).toMatch(/"msg":"shutdown: done"/);
  }, 60_000);
});

const COUNT = 200;

interface Create {
  ref: string;
  kind: "order" | "transfer";
  send: () => Promise<{ status: number }>;
}

/** Half orders, half transfers, each its own amount (none is asked about as a repeat). */
function creates(d: OwnDashboard): Create[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const ref = newRef("term");
    const cents = String(100 + i);
    if (i % 2) {
      const body = smallOrder(ref, { base_amount: `0.${cents.padStart(4, "0")}` });
      return { ref, kind: "order", send: () => d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body) };
    }
    const body = smallTransfer(ref, { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, amount: `1.${cents}` });
    return { ref, kind: "transfer", send: () => d.as.ops.call("POST", "/api/v2/transfer/internal", body) };
  });
}

async function heldByService(d: OwnDashboard, c: Create): Promise<number> {
  if (c.kind === "order") return (await d.sandboxOrders(c.ref)).length;
  return (await d.sandboxTransfers(c.ref)).filter((t) => t.direction === "DEBIT").length;
}

describe.each<Engine>(["sqlite", "postgres"])(`SIGTERM during a burst of ${COUNT} creates on %s`, (engine) => {
  let d: OwnDashboard;
  beforeAll(async () => {
    d = await startDashboard({
      database: engine,
      // The burst's creates queue for the machine's two cores: given time enough to finish, so
      // that what the shutdown does to them is all that is measured.
      env: { SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS), SERVICE_TIMEOUT_MS: "10000" },
    });
  });
  afterAll(() => d?.dispose());

  it("finishes what it took, refuses the rest, leaves nothing pending or doubled, and exits 0 within the grace period", async () => {
    const all = creates(d);
    const send = (c: Create) =>
      c.send().then(
        (r) => r.status,
        () => "no answer" as const,
      );
    // Half the burst arrives first; SIGTERM comes once a quarter of the burst has reached the service.
    const sentBefore = d.proxy.requests.length;
    const first = all.slice(0, COUNT / 2).map(send);
    await eventually(
      async () =>
        d.proxy.requests.slice(sentBefore).filter((r) => r.method === "POST").length >= COUNT / 4 || undefined,
      60_000,
      "a quarter of the creates to reach the service",
    );
    const exit = exitOf(d.app);
    d.app.process.kill("SIGTERM");
    // The other half arrives once the shutdown has begun.
    await eventually(async () => {
      const r = await rawCall(d.url, "GET", "/api/ready").catch(() => ({ status: 0 }));
      return r.status !== 200 ? true : undefined;
    });
    const second = all.slice(COUNT / 2).map(send);
    const statuses = await Promise.all([...first, ...second]);
    const { code, ms } = await exit;
    const pending = await pendingEntries(d, engine);

    await d.restart("SIGTERM"); // already stopped: starts it again on the same data
    const held = new Map<string, number>();
    for (let i = 0; i < all.length; i += 20) {
      await Promise.all(all.slice(i, i + 20).map(async (c) => void held.set(c.ref, await heldByService(d, c))));
    }
    const ok = all.filter((_, i) => statuses[i] === 200);
    const figures = {
      engine,
      creates: COUNT,
      answered200: ok.length,
      refused503: statuses.filter((s) => s === 503).length,
      noAnswer: statuses.filter((s) => s === "no answer").length,
      other: statuses.filter((s) => s !== 200 && s !== 503 && s !== "no answer"),
      answered200FoundOnce: ok.filter((c) => held.get(c.ref) === 1).length,
      pendingAfterExit: pending,
      exitCode: code,
      exitMs: Math.round(ms),
    };
    console.info(`SIGTERM figures: ${JSON.stringify(figures)}`);

    // 0, not 1: everything in flight finished before the grace period ran out (lib/server/ops/shutdown.ts).
    expect(code).toBe(0);
    expect(pending).toBe(0);
    // Everything that arrived before the signal was finished, not cut.
    expect(statuses.slice(0, COUNT / 2).filter((s) => s !== 200)).toEqual([]);
    expect(figures.answered200FoundOnce).toBe(ok.length);
    expect(figures.other).toEqual([]);
    expect(figures.refused503).toBeGreaterThan(0);
    for (const [i, c] of all.entries()) {
      expect(held.get(c.ref), c.ref).toBeLessThanOrEqual(1);
      if (statuses[i] === 200) continue;
      // Refused (or never let in): it never reached the service, and was not journaled.
      expect(held.get(c.ref), c.ref).toBe(0);
      expect(await d.journal(c.ref), c.ref).toEqual([]);
    }
    for (const c of ok)
      expect(
        (await d.journal(c.ref)).map((e) => e.status),
        c.ref,
      ).toEqual(["succeeded"]);
  }, 300_000);
});

describe("two instances on one PostgreSQL, the leader stopped with SIGTERM", () => {
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
    const env = { ...proxy.env(), SERVICE_TIMEOUT_MS: String(SERVICE_TIMEOUT_MS), DATABASE_URL: databaseUrl };
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

  it("hands the watcher to the other instance, and exits 0", async () => {
    // A stream on each starts both instances' live updates: one leads, the other follows.
    for (const app of [a, b]) {
      const viewer = await signIn(app, "viewer@example.com");
      streams.push(await openStream(app.url, viewer.cookie()));
    }
    const first = await eventually(async () => await leaderPid(), 10_000, "a leader");
    const [leader, follower] = first === a.process.pid ? [a, b] : [b, a];
    expect(leader.process.pid).toBe(first);

    const exit = exitOf(leader);
    const sent = performance.now();
    leader.process.kill("SIGTERM");
    await eventually(
      async () => ((await leaderPid()) === follower.process.pid ? true : undefined),
      30_000,
      "a new leader",
    );
    // How fast is a figure, not a threshold: a loaded machine decides it.
    console.info(`leader handover after SIGTERM: ${Math.round(performance.now() - sent)} ms`);
    expect((await exit).code).toBe(0);
  }, 60_000);
});
