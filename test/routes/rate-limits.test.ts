import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sandboxClient } from "../support/sandbox-server";
import {
  expectProblem,
  inProcessDashboard,
  newRef,
  rawCall,
  smallOrder,
  smallTransfer,
  TRADING,
  type InProcessDashboard,
} from "../support/dashboard";
import { TOKEN_PATH } from "../support/faults";

/**
 * The budget and the sandbox's limits, the route handlers in process: the dashboard in front of
 * the in-process faults, with the sandbox enforcing the service's published limits (a short
 * penalty) and the dashboard budgeting for those same limits. The faults see every call and its
 * status. A lockout or a penalty ends when the test moves the runtime's clock past it (the
 * dashboard's limiter and the sandbox's rate limiter both read it). Two instances sharing a
 * lockout on PostgreSQL are a test of two processes: test/integration/process/two-instances.test.ts.
 *
 * A describe that reads a lockout's Retry-After runs on a runtime of its own whose clock has not
 * been moved: the header is counted on the machine's clock (lib/server/http/route.ts), the
 * lockout's end on the runtime's.
 */

const PENALTY_SECONDS = 3;
/** The dashboard's lockout after a 429 without Retry-After: long enough to see nothing sent, short for a test. */
const LOCKOUT_SECONDS = 4;
const METRICS_TOKEN = "scraper-token-for-the-rate-limit-tests";
let d: InProcessDashboard;

/** A runtime of this describe's own: the service's limits and penalties, which the tests run into. */
function ownDashboard() {
  beforeAll(async () => {
    await d?.dispose();
    d = await inProcessDashboard({
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
}
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
async function lockedUntilGauge(): Promise<number> {
  const res = await rawCall(d.target, "GET", "/api/metrics", {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const value = /^dashboard_upstream_locked_until_seconds (\d+)$/m.exec(String(res.body))?.[1];
  if (value === undefined) throw new Error("no dashboard_upstream_locked_until_seconds in /api/metrics");
  return Number(value);
}

/** Moves the runtime's clock to the lockout's end, as the gauge (which asks the service nothing) gives it. */
async function lockoutOver(): Promise<void> {
  const until = (await lockedUntilGauge()) * 1000;
  if (until > d.app.clock.now()) d.app.clock.advance(until - d.app.clock.now());
  expect(await lockedUntilGauge(), "the lockout is over").toBe(0);
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
  expect(retryAfter * 1000).toBeGreaterThanOrEqual(until - d.app.clock.now());
  expect(retryAfter * 1000).toBeLessThanOrEqual(until - sentAt + 1000);
  return until;
}

describe("the token endpoint's 429", () => {
  // From the runtime's start: no token asked for yet. The burst and the metrics below run on it too.
  ownDashboard();

  it("locks every call out too: the page answers 503 with Retry-After, and no token is asked for until it ends", async () => {
    d.proxy.fail({ method: "POST", path: TOKEN_PATH }, { kind: "status", status: 429 });
    const sentAt = d.app.clock.now();
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

describe("GET /api/metrics", () => {
  it("401 without credentials, 403 for a non-admin or a wrong token", async () => {
    expectProblem(await rawCall(d.target, "GET", "/api/metrics"), 401);
    expectProblem(await d.as.viewer.call("GET", "/api/metrics"), 403);
    expectProblem(await d.as.approver.call("GET", "/api/metrics"), 403);
    const wrong = await rawCall(d.target, "GET", "/api/metrics", {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}x` },
    });
    expectProblem(wrong, 403);
    // A wrong token is refused even with an admin's session beside it.
    expectProblem(await d.as.admin.call("GET", "/api/metrics", undefined, { Authorization: "Bearer nope" }), 403);
  });

  it("serves Prometheus text to a scraper's token and to an admin, ids never in a label", async () => {
    const scraped = await rawCall(d.target, "GET", "/api/metrics", {
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

describe("a 429 without Retry-After (as the service sends it)", () => {
  // Its Retry-After read on a clock not yet moved.
  ownDashboard();

  it("sends the service nothing for SERVICE_RATE_PENALTY_SECONDS; users get 503 with Retry-After and its end; the gauge shows it", async () => {
    expect(await lockedUntilGauge()).toBe(0);
    // The dashboard holds its token: what reaches the service below is the calls themselves.
    expect((await d.as.viewer.call("GET", "/api/v2/markets")).status).toBe(200);
    d.proxy.fail({ method: "GET", path: "/sandbox/v2/profiles" }, { kind: "status", status: 429 });
    const mark = d.proxy.requests.length;
    const sentAt = d.app.clock.now();
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

    await lockoutOver();
    // Nothing was created meanwhile (asked once the lockout is over: the test's own client of the
    // sandbox asks for its token then, not in the same second as the dashboard, at 1 a second).
    expect(await d.sandboxOrders(orderRef)).toEqual([]);
    expect(await d.sandboxTransfers(transferRef)).toEqual([]);
    expect(d.app.clock.now()).toBeGreaterThanOrEqual(until - 1000);
    expect((await d.as.viewer.call("GET", "/api/v2/profiles")).status).toBe(200);
    const next = d.proxy.requests[mark + 1]!;
    expect(next.at).toBeGreaterThanOrEqual(until - 5);
  }, 30_000);
});

describe("the sandbox's penalty", () => {
  // The dashboard's lockout (its Retry-After) read first, on a clock not yet moved.
  ownDashboard();

  it("refuses a client that overran (another script using the dashboard's client), and the dashboard sends nothing until it is over", async () => {
    // The dashboard holds its token before the burst; the script, with the dashboard's
    // credentials, holds one too: the same (the token endpoint allows the client one a second).
    expect((await d.as.viewer.call("GET", "/api/v2/markets")).status).toBe(200);
    const token = d.proxy.tokens.at(-1)!.value;
    const script = sandboxClient(d.url, d.target.fetch);
    expect((await script.call("GET", "/profiles", undefined, token)).status).toBe(200);
    expect(await overrun(() => script.call("GET", "/profiles", undefined, token))).toContain(429);
    const mark = d.proxy.requests.length;
    // The first call meets the penalty; the second is not sent: both are told when to come back.
    const sentAt = d.app.clock.now();
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

  it("refuses an anonymous address for SANDBOX_RATE_PENALTY_SECONDS after its 429, and not the dashboard", async () => {
    const ticker = () => rawCall(d.target, "GET", "/sandbox/v2/markets/BTCUSD/ticker");
    expect(await overrun(ticker)).toContain(429);
    d.app.clock.advance(1000);
    // The bucket has long refilled; the penalty holds.
    const held = await ticker();
    expect(expectProblem(held, 429).detail).toMatch(/refused/);
    expect(Number(held.headers.get("retry-after"))).toBeLessThanOrEqual(PENALTY_SECONDS - 1);
    // The dashboard's own client reads the same market data meanwhile.
    expect((await d.as.viewer.call("GET", "/api/v2/markets/BTCUSD/ticker")).status).toBe(200);
    // Then it ends: the address is served again (a call refused during the penalty does not extend it).
    d.app.clock.advance(PENALTY_SECONDS * 1000 - 1000);
    expect((await ticker()).status, "the penalty is over").toBe(200);
  }, 60_000);
});
