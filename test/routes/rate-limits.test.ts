import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signIn, startApp, type AppServer } from "../../support/app-server";
import { startFaultProxy, TOKEN_PATH, type FaultProxy } from "../../support/fault-proxy";
import { sandboxClient, startSandboxServer, type SandboxServer } from "../../support/sandbox-server";
import {
  eventually,
  expectProblem,
  freshPostgresDatabase,
  newRef,
  rawCall,
  SERVICE_TIMEOUT_MS,
  smallOrder,
  smallTransfer,
  startDashboard,
  TRADING,
  type Dashboard,
} from "../../support/dashboard";

/**
 * The budget and the sandbox's limits over real HTTP: the app behind the fault proxy, with the
 * sandbox enforcing the service's published limits (a short penalty, so the test can see it end)
 * and the dashboard budgeting for those same limits. The proxy sees every call and its status.
 */

const PENALTY_SECONDS = 3;
/** The dashboard's lockout after a 429 without Retry-After: long enough to see nothing sent, short for a test. */
const LOCKOUT_SECONDS = 4;
const METRICS_TOKEN = "scraper-token-for-the-rate-limit-tests";
let d: Dashboard;

beforeAll(async () => {
  // Its own server, not the shared one: the service's rate limits and penalties, which would lock other files out.
  d = await startDashboard({
    env: {
      SANDBOX_API_RATE_PER_SECOND: "50",
      SANDBOX_TRANSFER_RATE_PER_SECOND: "20",
      SANDBOX_ORDER_BOOK_RATE_PER_SECOND: "10",
      SANDBOX_TOKEN_RATE_PER_SECOND: "1",
      SANDBOX_RATE_PENALTY_SECONDS: String(PENALTY_SECONDS),
      SERVICE_RATE_PENALTY_SECONDS: String(LOCKOUT_SECONDS),
      // The published limits, which the test helpers otherwise raise.
      SERVICE_API_RATE_PER_SECOND: "50",
      SERVICE_TRANSFER_RATE_PER_SECOND: "20",
      SERVICE_ORDER_BOOK_RATE_PER_SECOND: "10",
      SERVICE_TOKEN_RATE_PER_SECOND: "1",
      // 100 reads of the order book take 12.5 s at its 10/s (less the margin): room for a slow machine.
      SERVICE_TIMEOUT_MS: "30000",
      METRICS_TOKEN,
    },
  });
});
afterAll(() => d?.dispose());
// A test that failed half-way must not leave the next one locked out.
afterEach(async () => {
  d.proxy.clearFaults();
  await lockoutOver();
});

const statusesSince = (mark: number) => d.proxy.requests.slice(mark).map((r) => r.status);

/** Calls in batches of 50 at once until one is refused (at most 1,000): a slow machine spreads a single batch. */
async function overrun(call: () => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  while (!statuses.includes(429) && statuses.length < 1000) {
    statuses.push(...(await Promise.all(Array.from({ length: 50 }, call))).map((r) => r.status));
  }
  return statuses;
}

/** The lockout gauge as a scraper reads it (unix seconds, 0 when none). */
async function lockedUntilGauge(url = d.url): Promise<number> {
  const res = await rawCall(url, "GET", "/api/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  const value = /^dashboard_upstream_locked_until_seconds (\d+)$/m.exec(String(res.body))?.[1];
  if (value === undefined) throw new Error("no dashboard_upstream_locked_until_seconds in /api/metrics");
  return Number(value);
}

/** Waits (polling the gauge, which asks the service nothing) until the lockout is over. */
async function lockoutOver(url = d.url): Promise<void> {
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

describe("the token endpoint's 429", () => {
  it("locks every call out too: the page answers 503 with Retry-After, and no token is asked for until it ends", async () => {
    d.proxy.fail({ method: "POST", path: TOKEN_PATH }, { kind: "status", status: 429 });
    const sentAt = Date.now();
    const held = await d.as.viewer.call("GET", "/api/v2/profiles");
    const until = expectLockedOut(held, sentAt, LOCKOUT_SECONDS);
    expect((await d.as.viewer.call("GET", "/api/v2/profiles")).status).toBe(503);
    expect(d.proxy.requests.filter((r) => r.path === TOKEN_PATH).map((r) => r.status)).toEqual([429]);
    await lockoutOver();
    const res = await d.as.viewer.call("GET", "/api/v2/profiles");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tokens = d.proxy.requests.filter((r) => r.path === TOKEN_PATH);
    expect(tokens.map((r) => r.status)).toEqual([429, 200]);
    expect(tokens[1]!.at).toBeGreaterThanOrEqual(until - 5);
  });
});

describe("a burst of 100 page loads", () => {
  it("all load, and the dashboard never earns a 429 (nor its penalty)", async () => {
    const mark = d.proxy.requests.length;
    const users = Object.values(d.as);
    const started = performance.now();
    // A page load of the orders screen: the table, the profiles, the ticker and the book.
    const loads = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const user = users[i % users.length]!;
        const answers = await Promise.all([
          user.call("GET", "/api/orders?limit=5"),
          user.call("GET", "/api/v2/profiles"),
          user.call("GET", "/api/v2/markets/ETHUSD/ticker"),
          user.call("GET", "/api/v2/markets/ETHUSD/order-book"),
        ]);
        return answers.map((a) => a.status);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    expect(loads.flat().filter((s) => s !== 200)).toEqual([]);
    const sent = statusesSince(mark);
    expect(sent.filter((s) => s === 429)).toEqual([]);
    console.log(`100 page loads (${sent.length} calls to the service) in ${seconds.toFixed(1)} s, no 429`);
    // Not penalised: the next read goes straight through.
    expect((await d.as.viewer.call("GET", "/api/v2/profiles")).status).toBe(200);
  }, 60_000);
});

describe("a 429 without Retry-After (as the service sends it)", () => {
  it("sends the service nothing for SERVICE_RATE_PENALTY_SECONDS; users get 503 with Retry-After and its end; the gauge shows it", async () => {
    expect(await lockedUntilGauge()).toBe(0);
    d.proxy.fail({ method: "GET", path: "/sandbox/v2/profiles" }, { kind: "status", status: 429 });
    const mark = d.proxy.requests.length;
    const sentAt = Date.now();
    const first = await d.as.viewer.call("GET", "/api/v2/profiles");
    const until = expectLockedOut(first, sentAt, LOCKOUT_SECONDS);
    expect(until - sentAt).toBeGreaterThanOrEqual(LOCKOUT_SECONDS * 1000);
    expect(await lockedUntilGauge()).toBe(Math.ceil(until / 1000));

    // Every kind of call meanwhile: reads, market data, a CSV export, an order, a transfer, a cancel.
    const orderRef = newRef("locked");
    const transferRef = newRef("locked");
    const during = await Promise.all([
      d.as.viewer.call("GET", "/api/orders?limit=5"),
      d.as.viewer.call("GET", "/api/transfers?limit=5"),
      // A market no screen read a moment ago: market data shared from just before is no call to the service.
      d.as.viewer.call("GET", "/api/v2/markets/BCHUSD/order-book"),
      d.as.viewer.call("GET", "/api/v2/markets/BCHUSD/recent-executions"),
      d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(orderRef)),
      d.as.ops.call("POST", "/api/v2/transfer/internal", smallTransfer(transferRef)),
      d.as.trader.call("DELETE", `/api/v2/profiles/${TRADING}/orders/00000000-0000-4000-8000-000000000000`),
    ]);
    for (const res of during) expect(expectLockedOut(res, sentAt, LOCKOUT_SECONDS)).toBe(until);
    // Only the call that met the 429 reached the service.
    expect(d.proxy.requests.slice(mark).map((r) => r.status)).toEqual([429]);
    expect(await d.sandboxOrders(orderRef)).toEqual([]);
    expect(await d.sandboxTransfers(transferRef)).toEqual([]);

    await lockoutOver();
    expect(Date.now()).toBeGreaterThanOrEqual(until - 1000);
    expect((await d.as.viewer.call("GET", "/api/v2/profiles")).status).toBe(200);
    const next = d.proxy.requests[mark + 1]!;
    expect(next.at).toBeGreaterThanOrEqual(until - 5);
  }, 30_000);
});

describe("GET /api/metrics", () => {
  it("401 without credentials, 403 for a non-admin or a wrong token", async () => {
    expectProblem(await rawCall(d.url, "GET", "/api/metrics"), 401);
    expectProblem(await d.as.viewer.call("GET", "/api/metrics"), 403);
    expectProblem(await d.as.approver.call("GET", "/api/metrics"), 403);
    const wrong = await rawCall(d.url, "GET", "/api/metrics", {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}x` },
    });
    expectProblem(wrong, 403);
    // A wrong token is refused even with an admin's session beside it.
    expectProblem(await d.as.admin.call("GET", "/api/metrics", undefined, { Authorization: "Bearer nope" }), 403);
  });

  it("serves Prometheus text to a scraper's token and to an admin, ids never in a label", async () => {
    const scraped = await rawCall(d.url, "GET", "/api/metrics", {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = String(scraped.body);
    for (const name of [
      "dashboard_upstream_requests_total",
      "dashboard_upstream_request_duration_seconds",
      "dashboard_upstream_429_total",
      "dashboard_upstream_token_requests_total",
      "dashboard_event_streams_open",
      "dashboard_journal_entries_pending",
      "dashboard_approvals_pending",
      "dashboard_upstream_locked_until_seconds",
    ]) {
      expect(text).toMatch(new RegExp(`^# TYPE ${name} `, "m"));
    }
    expect(text).toMatch(/^dashboard_upstream_requests_total\{route="\/orders",status="200"\} \d+/m);
    expect(text).toMatch(
      /^dashboard_upstream_requests_total\{route="\/markets\/\{market\}\/order-book",status="200"\}/m,
    );
    expect(text).toMatch(/^dashboard_upstream_token_requests_total\{status="429"\} 1$/m);
    expect(text).not.toMatch(/ETHUSD|[0-9a-f]{8}-[0-9a-f]{4}-/);
    const admin = await d.as.admin.call("GET", "/api/metrics");
    expect(admin.status).toBe(200);
    expect(String(admin.body)).toContain("dashboard_approvals_pending");
  });
});

describe("the sandbox's penalty", () => {
  it("refuses an anonymous address for SANDBOX_RATE_PENALTY_SECONDS after its 429, and not the dashboard", async () => {
    const ticker = () => rawCall(d.url, "GET", "/sandbox/v2/markets/BTCUSD/ticker");
    expect(await overrun(ticker)).toContain(429);
    await new Promise((r) => setTimeout(r, 1000));
    // The bucket has long refilled; the penalty holds.
    const held = await ticker();
    expect(expectProblem(held, 429).detail).toMatch(/refused/);
    expect(Number(held.headers.get("retry-after"))).toBeLessThanOrEqual(PENALTY_SECONDS - 1);
    // The dashboard's own client reads the same market data meanwhile.
    expect((await d.as.viewer.call("GET", "/api/v2/markets/BTCUSD/ticker")).status).toBe(200);
    // Then it ends: the address is served again (a call refused during the penalty does not extend it).
    await eventually(
      async () => ((await ticker()).status === 200 ? true : undefined),
      PENALTY_SECONDS * 1000 + 20_000,
      "the penalty to end",
      250,
    );
  }, 60_000);

  it("refuses a client that overran (another script using the dashboard's client), and the dashboard sends nothing until it is over", async () => {
    const script = sandboxClient(d.url);
    expect((await script.call("GET", "/profiles")).status).toBe(200); // its token, before the burst
    expect(await overrun(() => script.call("GET", "/profiles"))).toContain(429);
    const mark = d.proxy.requests.length;
    // The first call meets the penalty; the second is not sent: both are told when to come back.
    const sentAt = Date.now();
    const first = await d.as.viewer.call("GET", "/api/v2/profiles");
    const second = await d.as.viewer.call("GET", "/api/v2/profiles");
    const until = expectLockedOut(first, sentAt, LOCKOUT_SECONDS);
    expect(expectLockedOut(second, sentAt, LOCKOUT_SECONDS)).toBe(until);
    expect(statusesSince(mark)).toEqual([429]);
    await lockoutOver();
    expect((await d.as.viewer.call("GET", "/api/v2/profiles")).status).toBe(200);
    // One call met the penalty; none was sent into it after that.
    expect(statusesSince(mark)).toEqual([429, 200]);
  });
});

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
