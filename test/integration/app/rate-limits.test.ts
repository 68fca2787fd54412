import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startApp, type AppServer } from "../../support/app-server";
import { startFaultProxy, type FaultProxy } from "../../support/fault-proxy";
import { startSandboxServer, type SandboxServer } from "../../support/sandbox-server";
import { expectProblem, freshPostgresDatabase, rawCall, SERVICE_TIMEOUT_MS } from "../../support/dashboard";

/**
 * Two instances of the dashboard on one PostgreSQL share the budget's lockout: a test of two
 * processes, on the database's own clock, so it waits for the lockout's real end. The budget
 * and the sandbox's limits, lockouts and penalties of one dashboard are tried in process, with
 * the runtime's clock moved: test/routes/rate-limits.test.ts.
 */

/** The dashboard's lockout after a 429 without Retry-After: long enough to see nothing sent, short for a test. */
const LOCKOUT_SECONDS = 4;
const METRICS_TOKEN = "scraper-token-for-the-rate-limit-tests";

/** The lockout gauge as a scraper reads it (unix seconds, 0 when none). */
async function lockedUntilGauge(url: string): Promise<number> {
  const res = await rawCall(url, "GET", "/api/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  const value = /^dashboard_upstream_locked_until_seconds (\d+)$/m.exec(String(res.body))?.[1];
  if (value === undefined) throw new Error("no dashboard_upstream_locked_until_seconds in /api/metrics");
  return Number(value);
}

/** Waits (polling the gauge, which asks the service nothing) until the lockout is over. */
async function lockoutOver(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await lockedUntilGauge(url)) !== 0) {
    if (Date.now() > deadline) throw new Error("the lockout did not end within a minute");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A 503 of the lockout, answered to a call made at `sentAt` or later: Retry-After and the
 * problem say when it ends, the same moment (Retry-After counted from when it was answered).
 */
function expectLockedOut(res: { status: number; headers: Headers; body: any }, sentAt: number, atMostSeconds: number) {
  const p = expectProblem(res, 503);
  const until = Date.parse(String(p.meta?.locked_until));
  expect(until, JSON.stringify(p)).toBeGreaterThan(sentAt);
  expect(p.detail).toContain(new Date(until).toISOString());
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(atMostSeconds);
  expect(retryAfter * 1000).toBeGreaterThanOrEqual(until - Date.now());
  expect(retryAfter * 1000).toBeLessThanOrEqual(until - sentAt + 1000);
  return until;
}

describe("two instances on one PostgreSQL", () => {
  let sandbox: SandboxServer;
  let proxy: FaultProxy;
  let a: AppServer;
  let b: AppServer;

  beforeAll(async () => {
    sandbox = await startSandboxServer();
    proxy = await startFaultProxy();
    proxy.setTarget(Number(new URL(sandbox.url).port));
    const env = {
      ...proxy.env(),
      SERVICE_TIMEOUT_MS: String(SERVICE_TIMEOUT_MS),
      SERVICE_RATE_PENALTY_SECONDS: String(LOCKOUT_SECONDS),
      METRICS_TOKEN,
      DATABASE_URL: await freshPostgresDatabase(),
    };
    [a, b] = await Promise.all([startApp(env), startApp(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.dispose(), b?.dispose()]);
    await proxy?.close();
    await sandbox?.close();
  });

  it("share the lockout: after A meets a 429, B sends nothing either and says when it ends", async () => {
    const [onA, onB] = await Promise.all([signIn(a, "viewer@example.com"), signIn(b, "viewer@example.com")]);
    // Each instance has its token before.
    for (const viewer of [onA, onB]) expect((await viewer.call("GET", "/api/v2/markets")).status).toBe(200);
    expect(await lockedUntilGauge(b.url)).toBe(0);
    proxy.fail({ method: "GET", path: "/sandbox/v2/profiles" }, { kind: "status", status: 429 });
    const mark = proxy.requests.length;
    const sentAt = Date.now();
    const until = expectLockedOut(await onA.call("GET", "/api/v2/profiles"), sentAt, LOCKOUT_SECONDS);
    const onBMeanwhile = await onB.call("GET", "/api/v2/orders");
    // Both read the lockout's end on the database's clock: the same moment.
    expect(expectLockedOut(onBMeanwhile, sentAt, LOCKOUT_SECONDS)).toBe(until);
    expect(proxy.requests.slice(mark).map((r) => r.status)).toEqual([429]);
    expect(await lockedUntilGauge(b.url)).toBe(Math.ceil(until / 1000));
    await lockoutOver(b.url);
    expect((await onB.call("GET", "/api/v2/orders")).status).toBe(200);
  }, 30_000);
});
