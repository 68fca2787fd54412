import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_PATH } from "../../support/fault-proxy";
import { sandboxClient } from "../../support/sandbox-server";
import { expectProblem, rawCall, startDashboard, type Dashboard } from "../../support/dashboard";

/**
 * The budget and the sandbox's limits over real HTTP: the app behind the fault proxy, with the
 * sandbox enforcing the service's published limits (a short penalty, so the test can see it end)
 * and the dashboard budgeting for those same limits. The proxy sees every call and its status.
 */

const PENALTY_SECONDS = 3;
const METRICS_TOKEN = "scraper-token-for-the-rate-limit-tests";
let d: Dashboard;

beforeAll(async () => {
  d = await startDashboard({
    env: {
      SANDBOX_API_RATE_PER_SECOND: "50",
      SANDBOX_TRANSFER_RATE_PER_SECOND: "20",
      SANDBOX_ORDER_BOOK_RATE_PER_SECOND: "10",
      SANDBOX_TOKEN_RATE_PER_SECOND: "1",
      SANDBOX_RATE_PENALTY_SECONDS: String(PENALTY_SECONDS),
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

const statusesSince = (mark: number) => d.proxy.requests.slice(mark).map((r) => r.status);

/** Calls in batches of 50 at once until one is refused (at most 1,000): a slow machine spreads a single batch. */
async function overrun(call: () => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  while (!statuses.includes(429) && statuses.length < 1000) {
    statuses.push(...(await Promise.all(Array.from({ length: 50 }, call))).map((r) => r.status));
  }
  return statuses;
}

describe("the token endpoint's 429", () => {
  it("is waited out and retried within the call's time limit: the page loads", async () => {
    d.proxy.fail({ method: "POST", path: TOKEN_PATH }, { kind: "status", status: 429 });
    const res = await d.as.viewer.call("GET", "/api/v2/profiles");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tokens = d.proxy.requests.filter((r) => r.path === TOKEN_PATH);
    expect(tokens.map((r) => r.status)).toEqual([429, 200]);
    // Backed off rather than asking again at once.
    expect(tokens[1]!.at - tokens[0]!.at).toBeGreaterThanOrEqual(900);
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
    await new Promise((r) => setTimeout(r, PENALTY_SECONDS * 1000));
    expect((await ticker()).status).toBe(200);
  });

  it("refuses a client that overran (another script using the dashboard's client), and the dashboard waits it out", async () => {
    const script = sandboxClient(d.url);
    expect((await script.call("GET", "/profiles")).status).toBe(200); // its token, before the burst
    expect(await overrun(() => script.call("GET", "/profiles"))).toContain(429);
    const mark = d.proxy.requests.length;
    const started = Date.now();
    // The first call meets the penalty (429 relayed); the limiter then holds every call until Retry-After.
    const first = await d.as.viewer.call("GET", "/api/v2/profiles");
    const second = await d.as.viewer.call("GET", "/api/v2/profiles");
    expect([first.status, second.status]).toEqual([429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual((PENALTY_SECONDS - 1) * 1000);
    // One call met the penalty; none was sent into it after that.
    expect(statusesSince(mark).filter((s) => s === 429)).toHaveLength(1);
  });
});
