import { request as httpRequest } from "node:http";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_PASSWORD, type AppServer } from "../../support/app-server";
import {
  eventually,
  expectProblem,
  newRef,
  rawCall,
  smallOrder,
  TRADING,
  TREASURY,
  type JournalItem,
} from "../../support/dashboard";
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
import { TEST_CONTROL_PATH } from "../../support/test-control";
import { webhookReceiver } from "../../support/webhook-receiver";
import { Webhook } from "standardwebhooks";

/**
 * One instance on SQLite, started as production starts it (`next start`, no test control), taken
 * through its life in one process and its restart: what it logs; `kill -9` in the middle of 200
 * creates and a restart on the same data; and SIGTERM, as every rolling deploy sends it, in the
 * middle of another burst. The service is the sandbox in this test process, behind a fault
 * proxy: it outlives the instance, as the real one does.
 */

const clientSecret = "client-secret-0123456789-must-not-be-logged";
const metricsToken = "metrics-token-0123456789-must-not-be-logged";
const COUNT = 200;

let service: Service;
let d: Instance;
beforeAll(async () => {
  service = await startService(clientSecret);
  d = await startInstance({
    ...service.env(),
    // Its embedded sandbox serves too (its answers are logged alike), with the same secret.
    SANDBOX: "on",
    SANDBOX_CLIENT_SECRET: clientSecret,
    METRICS_TOKEN: metricsToken,
    LOG_LEVEL: "debug",
    TRUSTED_PROXY_IPS: "127.0.0.2",
    SHUTDOWN_GRACE_SECONDS: "20",
    // The bursts' creates queue for the machine's two cores: given time enough to reach the service;
    // and the creates the service holds stay pending until the kill.
    SERVICE_TIMEOUT_MS: "60000",
    // The webhook's receiver is this test's, on loopback.
    WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
  });
});
afterAll(async () => {
  await d?.dispose();
  await service?.close();
});

describe("a production start", () => {
  it("has no test control: its path answers as any path no route takes", async () => {
    const unknown = await rawCall(d.url, "POST", "/__test__/nothing", { body: { op: "advance", ms: 1 } });
    expect(unknown.status).toBe(404);
    for (const method of ["GET", "POST"]) {
      const res = await rawCall(d.url, method, TEST_CONTROL_PATH, {
        body: method === "POST" ? { op: "advance", ms: 60_000 } : undefined,
        headers: { Authorization: "Bearer anything-at-all-of-24-characters" },
      });
      expect({ method, status: res.status, type: res.headers.get("content-type") }).toEqual({
        method,
        status: 404,
        type: unknown.headers.get("content-type"),
      });
    }
  });
});

/** The app's JSON log lines (Next's own start-up lines are plain text; the last may be half written). */
const jsonLines = (app: AppServer) =>
  app
    .log()
    .split("\n")
    .filter((l) => l.startsWith("{") && l.endsWith("}"))
    .map((l) => JSON.parse(l) as Record<string, any>);

/** One GET from a chosen loopback address (127.0.0.2 stands for the trusted proxy). */
function getFrom(localAddress: string, url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("request logs", () => {
  /** The request's own line (other lines made while it was handled carry its id too, but no status). */
  const lineOf = (id: string) =>
    eventually(
      async () => jsonLines(d.app).find((l) => l.request_id === id && typeof l.status === "number"),
      5_000,
      `the line of ${id}`,
    );

  it("writes one JSON line per request: time, level, id, method, route, status, latency, user, upstream calls", async () => {
    const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef("log")));
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = await lineOf(id);
    expect(line).toMatchObject({
      level: "info",
      request_id: id,
      method: "POST",
      route: "/api/v2/profiles/[profile_id]/orders",
      path: `/api/v2/profiles/${TRADING}/orders`,
      status: 200,
      user_email: "trader@example.com",
      user_role: "trader",
    });
    expect(new Date(line.time).toISOString()).toBe(line.time);
    expect(line.latency_ms).toBeGreaterThan(0);
    expect(line.upstream_calls).toBeGreaterThanOrEqual(1);
    expect(line.upstream_ms).toBeGreaterThan(0);
    expect(jsonLines(d.app).filter((l) => l.request_id === id && typeof l.status === "number")).toHaveLength(1);
  });

  it("logs pages and the sandbox alike, and a signed-out request without a user", async () => {
    const page = await d.as.viewer.call("GET", "/orders");
    const anonymous = await rawCall(d.url, "GET", "/api/v2/profiles");
    const sandbox = await rawCall(d.url, "GET", "/sandbox/v2/markets");
    expect(await lineOf(page.headers.get("x-request-id")!)).toMatchObject({
      route: "/orders",
      user_role: "viewer",
      status: 200,
    });
    expect(await lineOf(anonymous.headers.get("x-request-id")!)).toMatchObject({
      status: 401,
      user_email: null,
      user_role: null,
    });
    expect(await lineOf(sandbox.headers.get("x-request-id")!)).toMatchObject({
      route: "/sandbox/[...path]",
      status: 200,
    });
  });

  it("keeps the X-Request-Id of a trusted proxy, and replaces a caller's own", async () => {
    const viaProxy = await getFrom("127.0.0.2", `${d.url}/api/health`, { "X-Request-Id": "lb-7f3a9c" });
    expect(viaProxy.headers["x-request-id"]).toBe("lb-7f3a9c");
    expect(await lineOf("lb-7f3a9c")).toMatchObject({ path: "/api/health", status: 200 });
    const direct = await getFrom("127.0.0.1", `${d.url}/api/health`, { "X-Request-Id": "caller-chosen" });
    expect(direct.headers["x-request-id"]).not.toBe("caller-chosen");
    expect(jsonLines(d.app).some((l) => l.request_id === "caller-chosen")).toBe(false);
  });

  it("never writes a cookie, an Authorization header, a password, a client secret or a token", async () => {
    const metrics = await rawCall(d.url, "GET", "/api/metrics", {
      headers: { Authorization: `Bearer ${metricsToken}` },
    });
    expect(metrics.status).toBe(200);
    const id = metrics.headers.get("x-request-id")!;
    // At debug each line carries the request's headers: these were there, redacted.
    const line = await lineOf(id);
    expect(line.headers.authorization).toBe("[redacted]");
    const signedIn = await lineOf((await d.as.admin.call("GET", "/api/approvals")).headers.get("x-request-id")!);
    expect(signedIn.headers.cookie).toBe("[redacted]");

    const log = d.app.log();
    const sessionCookies = [d.as.admin, d.as.trader, d.as.viewer].flatMap((c) =>
      c
        .cookie()
        .split("; ")
        .map((pair) => pair.split("=").slice(1).join("=")),
    );
    const tokens = service.proxy.tokens.map((t) => t.value);
    expect(tokens.length).toBeGreaterThan(0);
    for (const secret of [
      metricsToken,
      clientSecret,
      TEST_PASSWORD,
      ...tokens,
      ...sessionCookies.filter((v) => v.length > 20),
    ]) {
      expect(log.includes(secret), `the log holds ${secret.slice(0, 12)}...`).toBe(false);
    }
  });
});

describe(`kill -9 during ${COUNT} creates`, () => {
  it("loses, duplicates and leaves pending nothing; a retry of each makes exactly one record", async () => {
    // Two creates held at the service first: one it received and never answered, one it never received.
    const two = await holdTwoCreates(service, d);
    for (const ref of [two.forwarded, two.held]) {
      expect(await d.journal(ref)).toEqual([expect.objectContaining({ status: "pending" })]);
    }
    const all = burst(() => d, COUNT, "crash");
    const sentBefore = service.proxy.requests.length;
    const answers = all.map((c) =>
      c.send().then(
        (r) => r.status,
        () => "killed" as const,
      ),
    );
    // Kill once some creates have reached the service and others have not.
    await eventually(
      async () =>
        service.proxy.requests.slice(sentBefore).filter((r) => r.method === "POST").length >= COUNT / 4 || undefined,
      60_000,
      "a quarter of the creates to reach the service",
    );
    await d.restart("SIGKILL");
    service.proxy.clearFaults();
    const before = await Promise.all(answers);
    expect(before).toContain("killed");
    expect(await Promise.all(two.inFlight)).toEqual(["killed", "killed"]);
    await expectReconciled(service, d, two);

    // Reconciliation at start settles every entry the kill left pending.
    await eventually(
      async () => {
        const res = await d.as.admin.call("GET", "/api/activity?status=pending&limit=200");
        return (res.body.items as JournalItem[]).some((e) => e.ref_id.startsWith("crash-")) ? undefined : true;
      },
      60_000,
      "no create left pending",
    );

    await forEachCreate(all, async (c, i) => {
      const entries = await d.journal(c.ref);
      const held = await service.held(c);
      expect(entries.length, c.ref).toBeLessThanOrEqual(1);
      expect(held, `${c.ref} made at most once`).toBeLessThanOrEqual(1);
      const entry = entries[0];
      // Journaled before it is sent: no entry means the service never saw it.
      if (!entry) expect(held, `${c.ref} sent without a journal entry`).toBe(0);
      else if (entry.status === "succeeded") expect(held, `${c.ref} succeeded`).toBe(1);
      else expect({ status: entry.status, held }, c.ref).toEqual({ status: "failed", held: 0 });
      if (before[i] === 200) expect(entry?.status, `${c.ref} answered 200`).toBe("succeeded");
    });

    // Each sent again with its ref_id: one record and one succeeded entry, whatever happened before.
    const retried: (number | string)[] = [];
    await forEachCreate(all, async (c) => void retried.push((await c.send()).status));
    expect(retried.filter((s) => s !== 200)).toEqual([]);
    await forEachCreate(all, async (c) => {
      expect(await service.held(c), c.ref).toBe(1);
      expect(
        (await d.journal(c.ref)).map((e) => e.status),
        c.ref,
      ).toEqual(["succeeded"]);
    });
  }, 300_000);
});

/**
 * A batch, a parent order and a webhook delivery, each in flight when the instance is stopped,
 * and restarted on the same data: one SIGKILL and one SIGTERM serve all three (each restart is
 * a process the suite starts, issue 24), and each is checked on its own after them.
 */
describe("a batch, a parent order and a webhook delivery, each stopped mid-way", () => {
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  afterAll(() => receiver?.close());

  it("SIGKILL, then SIGTERM, each with a restart on the same data: every batch row and every child at the service exactly once, the batches COMPLETED, the delivery cut short made again with its webhook-id", async () => {
    // The webhook's receiver takes the first attempt and never answers: the kill lands between
    // the create and its delivery.
    receiver = await webhookReceiver();
    receiver.answer({ status: 200, hang: true });
    const hook = await d.as.admin.call("POST", "/api/webhooks", { url: receiver.url, events: ["order.created"] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const order = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef("wh-kill")));
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    // This order's deliveries only: the parent's children and the restart's reconciliation report creates too.
    const ours = () => receiver.received.filter((r) => r.body.includes(order.body.id));
    await eventually(async () => (ours().length > 0 ? true : undefined), 20_000, "the first attempt");
    receiver.answer({ status: 200 });

    // Slices are 5 s apart at the least: each stop waits for one more child after the last, no
    // more. The batch goes once the parent has sent its second child: ten of its rows sent, the
    // parent is still between slices.
    const twap = await startTwap(service, d, "twap-stop");
    await twapMidWay(() => d, twap.id, 2);
    const since = service.proxy.requests.length;
    const batch = await startBatch(d, 40, "batch-SIGKILL");
    await eventually(async () => transfersSentSince(service, since) >= 10 || undefined, 60_000, "ten rows sent");
    await d.restart("SIGKILL");
    expect(transfersSentSince(service, since), "stopped mid-batch").toBeLessThan(batch.rows);

    // The delivery: made again after the restart, with the same webhook-id, and delivered.
    await eventually(async () => (ours().length > 1 ? true : undefined), 30_000, "the attempt after the restart");
    const ids = new Set(ours().map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const last = ours().at(-1)!;
    const body = new Webhook(hook.body.secret).verify(last.body, last.headers as Record<string, string>) as any;
    expect(body).toMatchObject({ type: "order.created", data: { order: { id: order.body.id } } });
    const id = [...ids][0];
    await eventually(
      async () => {
        const res = await d.as.admin.call("GET", `/api/webhooks/${hook.body.webhook.id}/deliveries`);
        return res.body.items?.find((i: { id: string }) => i.id === id)?.status === "DELIVERED" ? true : undefined;
      },
      10_000,
      `delivery ${id} DELIVERED`,
    );
    await expectBatchSentOnce(service, () => d, batch);

    // SIGTERM, as a deploy sends it: one more of the parent's children gone, a second batch ten rows in.
    const went = (p: { children: { sent_at: string | null }[] }) => p.children.filter((c) => c.sent_at).length;
    const sentNow = went(await twapMidWay(() => d, twap.id, 2));
    const atTerm = went(await twapMidWay(() => d, twap.id, sentNow + 1));
    const sinceTerm = service.proxy.requests.length;
    const second = await startBatch(d, 40, "batch-SIGTERM");
    await eventually(async () => transfersSentSince(service, sinceTerm) >= 10 || undefined, 60_000, "ten rows sent");
    const working = await d.as.trader.call("GET", `/api/parent-orders/${twap.id}`);
    expect(working.body.parent_order.status, "the parent still worked on when SIGTERM comes").toBe("WORKING");
    await d.restart("SIGTERM");
    expect(transfersSentSince(service, sinceTerm), "stopped mid-batch").toBeLessThan(second.rows);
    await expectBatchSentOnce(service, () => d, second);
    await expectTwapWorkedOnce(service, () => d, twap, atTerm + 1);
  }, 300_000);
});

/** Journal entries still pending, read from the stopped app's own database. */
function pendingEntries(dataDir: string): number {
  const db = new Database(join(dataDir, "dashboard.db"), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM journal WHERE status = 'pending'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe(`SIGTERM during a burst of ${COUNT} creates, a slow create in flight and a stream open`, () => {
  const streams: OpenStream[] = [];
  afterAll(() => streams.forEach((s) => s.close()));

  it("turns readiness 503, refuses what comes after, ends streams with a retry hint, finishes what it took, leaves nothing pending or doubled, and exits 0", async () => {
    const stream = await openStream(d.url, d.as.viewer.cookie());
    streams.push(stream);
    expect(stream.status).toBe(200);
    const all = burst(() => d, COUNT, "term");
    // Half the burst arrives first; SIGTERM comes once a quarter of the burst has reached the service.
    const sentBefore = service.proxy.requests.length;
    const first = all.slice(0, COUNT / 2).map(outcomeOf);
    await eventually(
      async () =>
        service.proxy.requests.slice(sentBefore).filter((r) => r.method === "POST").length >= COUNT / 4 || undefined,
      60_000,
      "a quarter of the creates to reach the service",
    );
    // And the service takes its time with one create (Treasury's: the burst's are Trading's and
    // transfers): it is surely still in flight when SIGTERM comes, and holds the drain open.
    const slowPath = `/sandbox/v2/profiles/${TREASURY}/orders`;
    service.proxy.fail({ method: "POST", path: slowPath }, { kind: "delay", ms: 5_000 }, 1);
    const sinceSlow = service.proxy.requests.length;
    const slowCreate = d.as.trader.call("POST", `/api/v2/profiles/${TREASURY}/orders`, smallOrder(newRef("drain")));
    await service.proxy.waitFor({ method: "POST", path: slowPath }, 1, { since: sinceSlow, timeoutMs: 30_000 });
    const exit = exitOf(d.app);
    const signalled = Date.now();
    d.app.process.kill("SIGTERM");
    const ready = await eventually(async () => {
      const r = await rawCall(d.url, "GET", "/api/ready").catch(() => undefined);
      return r && r.status !== 200 ? r : undefined;
    });
    expect({ status: ready.status, body: ready.body }).toEqual({
      status: 503,
      body: { status: "not ready", checks: { shutdown: "this instance is shutting down" } },
    });
    // Liveness holds while it drains: the orchestrator must not kill it early.
    expect((await rawCall(d.url, "GET", "/api/health")).status).toBe(200);
    const refused = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef("late")));
    expect(expectProblem(refused, 503).meta).toEqual({ reason: "shutting_down" });
    await eventually(async () => (stream.endedByServer() ? true : undefined), 5_000, "the stream to end");
    expect(stream.text().split(": open")[1]).toMatch(/retry: \d+\n/);
    // The other half arrives once the shutdown has begun.
    const second = all.slice(COUNT / 2).map(outcomeOf);
    const statuses = await Promise.all([...first, ...second]);
    expect((await slowCreate).status).toBe(200);
    const { code, ms } = await exit;
    const pending = pendingEntries(d.app.dataDir);

    const held = new Map<string, number>();
    await forEachCreate(all, async (c) => void held.set(c.ref, await service.held(c)));
    const ok = all.filter((_, i) => statuses[i] === 200);
    const figures = {
      creates: COUNT,
      answered200: ok.length,
      refusedAtTheDoor: statuses.filter((s) => s === "refused").length,
      noAnswer: statuses.filter((s) => s === "no answer").length,
      other: statuses.filter((s) => s !== 200 && s !== "refused" && s !== "no answer"),
      answered200FoundOnce: ok.filter((c) => held.get(c.ref) === 1).length,
      pendingAfterExit: pending,
      exitCode: code,
      exitMs: Math.round(ms),
    };
    console.info(`SIGTERM figures (SQLite): ${JSON.stringify(figures)}`);

    // 0, not 1: everything in flight finished before the grace period ran out (lib/server/ops/shutdown.ts).
    expect(code).toBe(0);
    expect(pending).toBe(0);
    expect(d.app.log()).toMatch(/"msg":"shutdown: done"/);
    // Every create it took was finished, not cut (at least the quarter that had reached the service
    // before the signal); the rest were refused at the door or found the port closed, and are
    // neither held nor journaled (below).
    expect(figures.other).toEqual([]);
    expect(ok.length).toBeGreaterThanOrEqual(COUNT / 4);
    expect(figures.answered200FoundOnce).toBe(ok.length);
    expect(figures.refusedAtTheDoor).toBeGreaterThan(0);
    for (const [i, c] of all.entries()) {
      expect(held.get(c.ref), c.ref).toBeLessThanOrEqual(1);
      // Refused (or never let in): it never reached the service, and was not journaled.
      if (statuses[i] !== 200) expect(held.get(c.ref), c.ref).toBe(0);
    }
    const journal = new Database(join(d.app.dataDir, "dashboard.db"), { readonly: true });
    try {
      const statusOf = journal.prepare("SELECT status FROM journal WHERE ref_id = ?");
      for (const [i, c] of all.entries()) {
        const rows = statusOf.all(c.ref) as { status: string }[];
        expect(
          rows.map((r) => r.status),
          c.ref,
        ).toEqual(statuses[i] === 200 ? ["succeeded"] : []);
      }
    } finally {
      journal.close();
    }

    // A planned drain is no outage: the refusals (each create of the burst turned away at the
    // door, and the late one) and readiness's 503 are logged at warn, and no request at error.
    const refusalsOf = (lines: Record<string, any>[]) => lines.filter((l) => l.method === "POST" && l.status === 503);
    const drained = await eventually(
      async () => {
        const lines = jsonLines(d.app).filter((l) => typeof l.status === "number" && Date.parse(l.time) >= signalled);
        return refusalsOf(lines).length >= figures.refusedAtTheDoor + 1 ? lines : undefined;
      },
      10_000,
      "a log line for each refusal",
    );
    const levels = (lines: Record<string, any>[]) => [...new Set(lines.map((l) => l.level))];
    expect(refusalsOf(drained).length).toBeGreaterThanOrEqual(figures.refusedAtTheDoor + 1);
    expect(levels(refusalsOf(drained))).toEqual(["warn"]);
    const notReady = drained.filter((l) => l.path === "/api/ready" && l.status === 503);
    expect(notReady.length).toBeGreaterThan(0);
    expect(levels(notReady)).toEqual(["warn"]);
    expect(drained.filter((l) => l.level === "error").map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([]);
  }, 300_000);
});
