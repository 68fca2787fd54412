import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../../support/app-server";
import {
  eventually,
  expectProblem,
  newRef,
  rawCall,
  smallOrder,
  TRADING,
  type Client,
  type JournalItem,
} from "../../support/dashboard";
import { freshPostgresDatabase } from "../../support/databases";
import { openStream, type OpenStream } from "../../support/event-stream";
import {
  burst,
  exitOf,
  expectReconciled,
  forEachCreate,
  holdTwoCreates,
  outcomeOf,
  startInstance,
  startBatch,
  startService,
  expectBatchSentOnce,
  expectTwapWorkedOnce,
  startTwap,
  transfersSentSince,
  twapMidWay,
  type Instance,
  type Service,
} from "../../support/instances";

/**
 * Two instances of the dashboard on one PostgreSQL, as several instances run behind a proxy,
 * taken through their life together: they behave as one (a create on A pushed to a stream on
 * B, one watcher's reads for both, a revocation on A ending B's stream); then `kill -9` of the
 * leader in the middle of 200 creates (the other leads; the killed one restarts; nothing lost,
 * doubled or left pending); then SIGTERM of the leader in the middle of another burst (the other
 * leads again; the stopped one exits 0). The service is the sandbox in this test process,
 * behind a fault proxy: it outlives both.
 */

const COUNT = 200;
/**
 * The lockout after a 429 without Retry-After: long enough to see nothing sent, short for a test.
 * Two instances share it on the database's own clock, which no test moves: its end is waited for.
 */
const LOCKOUT_SECONDS = 4;
const METRICS_TOKEN = "scraper-token-for-the-two-instances";
const orderWith = (ref: string) => (e: { event: string; data: any }) => e.event === "order" && e.data.ref_id === ref;

let service: Service;
let databaseUrl: string;
let a: Instance;
let b: Instance;
const streams: OpenStream[] = [];

beforeAll(async () => {
  service = await startService();
  databaseUrl = await freshPostgresDatabase();
  const env = {
    ...service.env(),
    DATABASE_URL: databaseUrl,
    SHUTDOWN_GRACE_SECONDS: "20",
    // The bursts' creates queue for the machine's two cores: given time enough to reach the service;
    // and the creates the service holds stay pending until the kill.
    SERVICE_TIMEOUT_MS: "60000",
    SERVICE_RATE_PENALTY_SECONDS: String(LOCKOUT_SECONDS),
    METRICS_TOKEN,
  };
  [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
});
afterAll(async () => {
  for (const s of streams) s.close();
  await Promise.all([a?.dispose(), b?.dispose()]);
  await service?.close();
});

/** The process id holding the watcher's advisory lock, from PostgreSQL itself. */
async function leaderPid(): Promise<number | undefined> {
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

/** The instance leading now, and the other. */
async function roles(): Promise<{ leader: Instance; follower: Instance }> {
  const pid = await eventually(async () => await leaderPid(), 10_000, "a leader");
  return pid === a.app.process.pid ? { leader: a, follower: b } : { leader: b, follower: a };
}

/** A stream that says it is open (its `retry:` line came). */
async function openedStream(base: string, cookie: string, query = ""): Promise<OpenStream> {
  const stream = await openStream(base, cookie, query);
  expect(stream.status, stream.text()).toBe(200);
  streams.push(stream);
  await eventually(async () => (stream.text().includes("retry:") ? true : undefined), 5_000, "retry line");
  return stream;
}

/** The newest live session of `email`, as an admin lists them. */
async function newestSession(admin: Client, email: string): Promise<string> {
  const res = await admin.call("GET", "/api/sessions");
  expect(res.status).toBe(200);
  const mine = (res.body.items as { id: string; user_email: string; started_at: string }[])
    .filter((s) => s.user_email === email)
    .sort((x, y) => y.started_at.localeCompare(x.started_at));
  return mine[0]!.id;
}

describe("two instances behave as one", () => {
  // Closed before the budget's test: no watcher reads then, only the test's own calls.
  afterAll(() => streams.splice(0).forEach((s) => s.close()));

  it("delivers an order placed on A to a stream on B, with one watcher's reads for both", async () => {
    // One of the two leads from its start (the batch sender needs a leader); the other follows.
    await roles();
    const onB = await openedStream(b.url, b.as.viewer.cookie());
    const onA = await openedStream(a.url, a.as.viewer.cookie());

    const ref = newRef("live-pg");
    const res = await a.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(res.status).toBe(200);
    await onB.next(orderWith(ref));
    await onA.next(orderWith(ref));

    // Streams open on both instances: the service is read by one watcher, whose reads all carry
    // one instance's token (each instance has its own).
    const lists = { method: "GET", path: "/sandbox/v2/orders" } as const;
    const since = service.proxy.requests.length;
    await service.proxy.waitFor(lists, 8, { since, timeoutMs: 30_000 });
    const readers = new Set(
      service.proxy.requests
        .slice(since)
        .filter((r) => r.method === lists.method && r.path === lists.path)
        .map((r) => r.bearer),
    );
    expect(readers.size).toBe(1);
  });

  it("closes a stream on B at a revocation made on A, and B refuses the session at once", async () => {
    const onB = await signIn(b, "ops@example.com");
    const stream = await openedStream(b.url, onB.cookie());
    expect((await onB.call("GET", "/api/approvals")).status).toBe(200);
    const id = await newestSession(a.as.admin, "ops@example.com");
    expect((await a.as.admin.call("DELETE", `/api/sessions/${id}`)).status).toBe(200);
    await stream.ended;
    expect(stream.endedByServer(), "B's server ended it").toBe(true);
    expect((await onB.call("GET", "/api/approvals")).status).toBe(401);
  });
});

/** The lockout gauge as a scraper reads it (unix seconds, 0 when none). */
async function lockedUntilGauge(url: string): Promise<number> {
  const res = await rawCall(url, "GET", "/api/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  const value = /^dashboard_upstream_locked_until_seconds (\d+)$/m.exec(String(res.body))?.[1];
  if (value === undefined) throw new Error("no dashboard_upstream_locked_until_seconds in /api/metrics");
  return Number(value);
}

/**
 * A 503 of the lockout, answered to a call made at `sentAt` or later: Retry-After and the
 * problem say when it ends, the same moment (Retry-After counted from when it was answered).
 */
function expectLockedOut(res: { status: number; headers: Headers; body: any }, sentAt: number) {
  const p = expectProblem(res, 503);
  const until = Date.parse(String(p.meta?.locked_until));
  expect(until, JSON.stringify(p)).toBeGreaterThan(sentAt);
  expect(p.detail).toContain(new Date(until).toISOString());
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(LOCKOUT_SECONDS);
  expect(retryAfter * 1000).toBeGreaterThanOrEqual(until - Date.now());
  expect(retryAfter * 1000).toBeLessThanOrEqual(until - sentAt + 1000);
  return until;
}

describe("two instances share the budget", () => {
  it("share the lockout: after A meets a 429, B sends nothing either and says when it ends", async () => {
    // Each instance has its token before.
    for (const i of [a, b]) expect((await i.as.viewer.call("GET", "/api/v2/markets")).status).toBe(200);
    expect(await lockedUntilGauge(b.url)).toBe(0);
    service.proxy.fail({ method: "GET", path: "/sandbox/v2/profiles" }, { kind: "status", status: 429 });
    const mark = service.proxy.requests.length;
    const sentAt = Date.now();
    const until = expectLockedOut(await a.as.viewer.call("GET", "/api/v2/profiles"), sentAt);
    const onBMeanwhile = await b.as.viewer.call("GET", "/api/v2/orders");
    // Both read the lockout's end on the database's clock: the same moment.
    expect(expectLockedOut(onBMeanwhile, sentAt)).toBe(until);
    expect(await lockedUntilGauge(b.url)).toBe(Math.ceil(until / 1000));
    // Polling the gauge asks the service nothing.
    await eventually(
      async () => ((await lockedUntilGauge(b.url)) === 0 ? true : undefined),
      60_000,
      "the lockout's end",
    );
    // From the 429 to the lockout's end, neither instance sent the service anything (the
    // watcher's reads included); what was already on its way arrived before it.
    const seen = service.proxy.requests.slice(mark);
    const refused = seen.findIndex((r) => r.status === 429);
    expect(refused, JSON.stringify(seen.map((r) => `${r.method} ${r.path} ${r.status}`))).toBeGreaterThanOrEqual(0);
    expect(seen.slice(refused + 1).filter((r) => r.at < until)).toEqual([]);
    expect((await b.as.viewer.call("GET", "/api/v2/orders")).status).toBe(200);
  }, 90_000);
});

/**
 * The leader stopped while a batch's rows go: by SIGKILL with a parent order's children going too
 * (one kill and one restart serve both, each a process the suite starts, issue 24), and by SIGTERM.
 */
describe("the leader stopped mid-batch", () => {
  it("SIGKILL, a parent order's children going too: the other instance leads, sends the rest of the batch, every row at the service exactly once, the batch COMPLETED, and works on the parent, no child at the service twice", async () => {
    const { leader, follower } = await roles();
    // Asked of the follower: the leader works on them. Slices are 5 s apart at the least: the
    // batch goes once the parent has sent its second child, so both are mid-way at the kill.
    const twap = await startTwap(service, follower, "twap-failover");
    await twapMidWay(() => follower, twap.id, 2);
    const since = service.proxy.requests.length;
    const batch = await startBatch(follower, 40, "batch-pg-SIGKILL");
    await eventually(async () => transfersSentSince(service, since) >= 10 || undefined, 60_000, "ten rows sent");
    await leader.app.stop("SIGKILL");
    expect(transfersSentSince(service, since), "stopped mid-batch").toBeLessThan(batch.rows);
    await eventually(
      async () => ((await leaderPid()) === follower.app.process.pid ? true : undefined),
      30_000,
      "the other instance to lead",
    );
    await expectBatchSentOnce(service, () => follower, batch);
    // One more child after the kill shows the other instance works on.
    await expectTwapWorkedOnce(service, () => follower, twap, 3);
    // Back, for what follows.
    await leader.restart("SIGKILL");
  }, 180_000);

  it("SIGTERM: the other instance leads and sends the rest, every row at the service exactly once, the batch COMPLETED", async () => {
    const { leader, follower } = await roles();
    const since = service.proxy.requests.length;
    // Asked of the follower: the leader sends it.
    const batch = await startBatch(follower, 40, "batch-pg-SIGTERM");
    await eventually(async () => transfersSentSince(service, since) >= 10 || undefined, 60_000, "ten rows sent");
    const exit = exitOf(leader.app);
    leader.app.process.kill("SIGTERM");
    await exit;
    expect(transfersSentSince(service, since), "stopped mid-batch").toBeLessThan(batch.rows);
    await expectBatchSentOnce(service, () => follower, batch);
    // Back, for what follows.
    await leader.restart();
  }, 180_000);
});

describe(`kill -9 of the leader during ${COUNT} creates`, () => {
  it("hands the watcher over; then loses, duplicates and leaves pending nothing; a retry of each makes exactly one record", async () => {
    const { leader, follower } = await roles();
    // Two creates held at the service first: one it received and never answered, one it never received.
    const two = await holdTwoCreates(service, leader);
    for (const ref of [two.forwarded, two.held]) {
      expect(await leader.journal(ref)).toEqual([expect.objectContaining({ status: "pending" })]);
    }
    const all = burst(() => leader, COUNT, "crash-pg");
    const sentBefore = service.proxy.requests.length;
    const answers = all.map((c) =>
      c.send().then(
        (r) => r.status,
        () => "killed" as const,
      ),
    );
    await eventually(
      async () =>
        service.proxy.requests.slice(sentBefore).filter((r) => r.method === "POST").length >= COUNT / 4 || undefined,
      60_000,
      "a quarter of the creates to reach the service",
    );
    const killed = leader.app.process.pid;
    await leader.app.stop("SIGKILL");
    service.proxy.clearFaults();
    expect(await Promise.all(two.inFlight)).toEqual(["killed", "killed"]);
    await eventually(
      async () => ((await leaderPid()) === follower.app.process.pid ? true : undefined),
      30_000,
      "the other instance to lead",
    );
    const before = await Promise.all(answers);
    expect(before).toContain("killed");

    // The new leader's watcher sees what happens at the service: an order placed there
    // directly, once it has looked twice (what it saw before the order is its baseline).
    const watching = await openedStream(follower.url, follower.as.viewer.cookie());
    await service.proxy.waitFor({ method: "GET", path: "/sandbox/v2/orders" }, 2, {
      since: service.proxy.requests.length,
    });
    const direct = newRef("live-direct");
    expect((await service.call("POST", `/profiles/${TRADING}/orders`, smallOrder(direct))).status).toBeLessThan(300);
    await watching.next(orderWith(direct));

    // Restarted on the same database: its reconciliation settles what the kill left pending.
    await leader.restart("SIGKILL");
    expect(leader.app.process.pid).not.toBe(killed);
    await expectReconciled(service, leader, two);
    await eventually(
      async () => {
        const res = await follower.as.admin.call("GET", "/api/activity?status=pending&limit=200");
        return (res.body.items as JournalItem[]).some((e) => e.ref_id.startsWith("crash-pg-")) ? undefined : true;
      },
      60_000,
      "no create left pending",
    );
    await forEachCreate(all, async (c, i) => {
      const entries = await follower.journal(c.ref);
      const held = await service.held(c);
      expect(entries.length, c.ref).toBeLessThanOrEqual(1);
      expect(held, `${c.ref} made at most once`).toBeLessThanOrEqual(1);
      const entry = entries[0];
      if (!entry) expect(held, `${c.ref} sent without a journal entry`).toBe(0);
      else if (entry.status === "succeeded") expect(held, `${c.ref} succeeded`).toBe(1);
      else expect({ status: entry.status, held }, c.ref).toEqual({ status: "failed", held: 0 });
      if (before[i] === 200) expect(entry?.status, `${c.ref} answered 200`).toBe("succeeded");
    });

    // Each sent again with its ref_id, to the restarted one: one record and one succeeded entry.
    const retried: (number | string)[] = [];
    await forEachCreate(all, async (c) => void retried.push((await c.send()).status));
    expect(retried.filter((s) => s !== 200)).toEqual([]);
    await forEachCreate(all, async (c) => {
      expect(await service.held(c), c.ref).toBe(1);
      expect(
        (await follower.journal(c.ref)).map((e) => e.status),
        c.ref,
      ).toEqual(["succeeded"]);
    });
  }, 300_000);
});

describe(`SIGTERM of the leader during a burst of ${COUNT} creates`, () => {
  it("hands the watcher over, finishes what it took, refuses the rest, leaves nothing pending or doubled, and exits 0", async () => {
    // A stream on each keeps both instances' live updates going: one leads, the other follows.
    await openedStream(a.url, a.as.viewer.cookie());
    await openedStream(b.url, b.as.viewer.cookie());
    const { leader, follower } = await roles();
    const all = burst(() => leader, COUNT, "term-pg");
    const sentBefore = service.proxy.requests.length;
    const first = all.slice(0, COUNT / 2).map(outcomeOf);
    await eventually(
      async () =>
        service.proxy.requests.slice(sentBefore).filter((r) => r.method === "POST").length >= COUNT / 4 || undefined,
      60_000,
      "a quarter of the creates to reach the service",
    );
    const exit = exitOf(leader.app);
    const sent = performance.now();
    leader.app.process.kill("SIGTERM");
    const second = all.slice(COUNT / 2).map(outcomeOf);
    await eventually(
      async () => ((await leaderPid()) === follower.app.process.pid ? true : undefined),
      30_000,
      "a new leader",
    );
    // How fast is a figure, not a threshold: a loaded machine decides it.
    console.info(`leader handover after SIGTERM: ${Math.round(performance.now() - sent)} ms`);
    const statuses = await Promise.all([...first, ...second]);
    const { code, ms } = await exit;

    const held = new Map<string, number>();
    await forEachCreate(all, async (c) => void held.set(c.ref, await service.held(c)));
    const ok = all.filter((_, i) => statuses[i] === 200);
    const pending = await follower.as.admin.call("GET", "/api/activity?status=pending&limit=200");
    const figures = {
      creates: COUNT,
      answered200: ok.length,
      refusedAtTheDoor: statuses.filter((s) => s === "refused").length,
      noAnswer: statuses.filter((s) => s === "no answer").length,
      other: statuses.filter((s) => s !== 200 && s !== "refused" && s !== "no answer"),
      answered200FoundOnce: ok.filter((c) => held.get(c.ref) === 1).length,
      pendingAfterExit: (pending.body.items as JournalItem[]).filter((e) => e.ref_id.startsWith("term-pg-")).length,
      exitCode: code,
      exitMs: Math.round(ms),
    };
    console.info(`SIGTERM figures (PostgreSQL): ${JSON.stringify(figures)}`);

    expect(code).toBe(0);
    expect(figures.pendingAfterExit).toBe(0);
    // Every create it took was finished, not cut (at least the quarter that had reached the service
    // before the signal); the rest were refused at the door or found the port closed, and are
    // neither held nor journaled (below).
    expect(figures.other).toEqual([]);
    expect(ok.length).toBeGreaterThanOrEqual(COUNT / 4);
    expect(figures.answered200FoundOnce).toBe(ok.length);
    expect(figures.refusedAtTheDoor).toBeGreaterThan(0);
    await forEachCreate(all, async (c, i) => {
      expect(held.get(c.ref), c.ref).toBeLessThanOrEqual(1);
      const statusesOf = (await follower.journal(c.ref)).map((e) => e.status);
      if (statuses[i] === 200) expect(statusesOf, c.ref).toEqual(["succeeded"]);
      else {
        // Refused (or never let in): it never reached the service, and was not journaled.
        expect(held.get(c.ref), c.ref).toBe(0);
        expect(statusesOf, c.ref).toEqual([]);
      }
    });
  }, 300_000);
});
