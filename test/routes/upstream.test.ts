import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  expectProblem,
  inProcessDashboard,
  newRef,
  smallOrder,
  smallTransfer,
  TRADING,
  type InProcessDashboard,
} from "../support/dashboard";
import { TOKEN_PATH, type Fault, type Match } from "../support/faults";

/**
 * The dashboard's route handlers against its sandbox through the in-process faults: OAuth tokens
 * (single-flight, refresh before expiry, a refused token dropped and the call retried once), the
 * mapping of the service's failures to problems, and creates that are retried without ever
 * making a second order or transfer. A token's lifetime and a fault's delay pass on the
 * runtime's clock, moved by the test; the time limit of a call (a real-time signal) is short
 * where a test waits for it, and faults that time out outlast it.
 */

const TOKEN_TTL_SECONDS = 12;
/** The dashboard's time limit for a call to the service, where the tests wait for it to pass. */
const SERVICE_TIMEOUT_MS = 300;
let d: InProcessDashboard;

/**
 * The dashboard a describe runs on: a fresh runtime with its settings (the token lifetime short),
 * or the one before when the settings are the same.
 */
let settings: string | undefined;
function dashboardWith(env: Record<string, string> = {}) {
  beforeAll(async () => {
    if (d && settings === JSON.stringify(env)) return;
    await d?.dispose();
    settings = JSON.stringify(env);
    d = await inProcessDashboard({ env: { SANDBOX_TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS), ...env } });
  });
}
afterAll(() => d?.dispose());
afterEach(() => d.proxy.clearFaults());

const PROFILES: Match = { method: "GET", path: "/sandbox/v2/profiles" };
const TOKEN: Match = { method: "POST", path: TOKEN_PATH };
const CREATE_ORDER: Match = { method: "POST", path: `/sandbox/v2/profiles/${TRADING}/orders` };
const CREATE_TRANSFER: Match = { method: "POST", path: "/sandbox/v2/transfer/internal" };
const since = (index: number) => d.proxy.requests.slice(index);

describe("OAuth tokens of the dashboard", () => {
  // From the runtime's start: no token asked for yet.
  dashboardWith();

  it("50 concurrent reads right after start make exactly one token request", async () => {
    expect(d.proxy.count(TOKEN)).toBe(0);
    const answers = await Promise.all(Array.from({ length: 50 }, () => d.as.trader.call("GET", "/api/v2/profiles")));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(d.proxy.count(TOKEN)).toBe(1);
    const reads = d.proxy.requests.filter((r) => r.path === PROFILES.path);
    // Identical reads in the same moment share one call (single-flight): at least one, never more than asked.
    expect(reads.length).toBeGreaterThanOrEqual(1);
    expect(reads.length).toBeLessThanOrEqual(50);
    expect(new Set(reads.map((r) => r.bearer))).toEqual(new Set([d.proxy.tokens[0]!.value]));
  });

  it("one cached token serves every kind of call: reads of every scope make no further token request", async () => {
    const paths = [
      "/api/v2/orders",
      "/api/v2/transfer/transfers",
      "/api/v2/markets",
      `/api/v2/profiles/${TRADING}/balances`,
    ];
    const answers = await Promise.all(
      paths.flatMap((path) => Array.from({ length: 10 }, () => d.as.viewer.call("GET", path))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    expect(d.proxy.count(TOKEN)).toBe(1);
  });

  it("fetches a new token once, shortly before the old one expires, and never sends an expired one", async () => {
    const first = d.proxy.tokens[0]!;
    expect(first.expiresInSeconds).toBe(TOKEN_TTL_SECONDS);
    // The cache refreshes at the latest at half-life for short lifetimes (6 s here): the clock moves just past it.
    const wait = first.at + (TOKEN_TTL_SECONDS / 2) * 1000 + 300 - d.app.clock.now();
    if (wait > 0) d.app.clock.advance(wait);
    const mark = d.proxy.requests.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => d.as.trader.call("GET", "/api/v2/profiles")));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(since(mark).filter((r) => r.path === TOKEN_PATH)).toHaveLength(1);
    const fresh = d.proxy.tokens.at(-1)!;
    expect(fresh.value).not.toBe(first.value);
    const reads = since(mark).filter((r) => r.path === PROFILES.path);
    expect(new Set(reads.map((r) => r.bearer))).toEqual(new Set([fresh.value]));
    // Every request so far carried a token inside its lifetime.
    const issued = new Map(d.proxy.tokens.map((t) => [t.value, t]));
    for (const r of d.proxy.requests.filter((r) => r.bearer)) {
      const token = issued.get(r.bearer!);
      expect(token, `${r.method} ${r.path} carried a token the proxy never saw issued`).toBeDefined();
      expect(r.at - token!.at).toBeLessThan(TOKEN_TTL_SECONDS * 1000);
    }
  });

  it("drops a token the service stops accepting (401 invalid_token) and retries the call once", async () => {
    d.proxy.fail(PROFILES, { kind: "invalid-token" });
    const mark = d.proxy.requests.length;
    const res = await d.as.viewer.call("GET", "/api/v2/profiles");
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    const seen = since(mark);
    const reads = seen.filter((r) => r.path === PROFILES.path);
    expect(reads.map((r) => r.fault ?? "forwarded")).toEqual(["invalid-token", "forwarded"]);
    // The retry carried a token issued after the refusal, not the refused one.
    expect(reads[1]!.bearer).not.toBe(reads[0]!.bearer);
    expect(seen.filter((r) => r.path === TOKEN_PATH)).toHaveLength(1);
    expect(d.proxy.tokens.find((t) => t.value === reads[1]!.bearer)!.at).toBeGreaterThanOrEqual(reads[0]!.at);
  });

  it("a 401 without a challenge (as the service sends it) to a read: one new token, one retry", async () => {
    const mark = d.proxy.requests.length;
    const tokensBefore = d.proxy.tokens.length;
    d.proxy.fail(PROFILES, { kind: "status", status: 401 });
    const res = await d.as.viewer.call("GET", "/api/v2/profiles");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const reads = since(mark).filter((r) => r.path === PROFILES.path);
    expect(reads.map((r) => r.status)).toEqual([401, 200]);
    expect(since(mark).filter((r) => r.path === TOKEN_PATH)).toHaveLength(1);
    // The retry carried the new token; the refused one is not sent again.
    expect(reads[1]!.bearer).toBe(d.proxy.tokens.at(-1)!.value);
    expect(d.proxy.tokens).toHaveLength(tokensBefore + 1);
    expect(reads[1]!.bearer).not.toBe(reads[0]!.bearer);
    const after = await d.as.viewer.call("GET", "/api/v2/markets");
    expect(after.status).toBe(200);
    expect(since(mark).filter((r) => r.bearer === reads[0]!.bearer)).toHaveLength(1);
  });

  it("answers a 502 problem, not a 401 that reads as 'sign in again', when a fresh token is refused too", async () => {
    d.proxy.fail(PROFILES, { kind: "status", status: 401 }, 2);
    const mark = d.proxy.requests.length;
    const res = await d.as.viewer.call("GET", "/api/v2/profiles");
    const p = expectProblem(res, 502);
    expect(p.detail).toMatch(/^The service refused the dashboard's credentials/);
    expect(since(mark).filter((r) => r.path === PROFILES.path)).toHaveLength(2);
  });

  it("a 401 to a create: no new token and no second send, a 502 (never a 401), nothing created", async () => {
    d.proxy.fail(CREATE_ORDER, { kind: "status", status: 401 });
    const ref = newRef();
    const mark = d.proxy.requests.length;
    const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(expectProblem(res, 502).detail).toMatch(/^The service refused the dashboard's credentials/);
    const [refused] = since(mark).filter((r) => r.path === CREATE_ORDER.path);
    expect(since(mark).filter((r) => r.path === CREATE_ORDER.path)).toHaveLength(1);
    // No new token was fetched to try again (this suite's short-lived tokens may renew before the send).
    expect(since(mark).filter((r) => r.path === TOKEN_PATH && r.at >= refused!.at)).toHaveLength(0);
    expect(await d.sandboxOrders(ref)).toHaveLength(0);
    expect(await d.journal(ref)).toEqual([expect.objectContaining({ status: "failed", http_status: 502 })]);
    // The refused token was dropped: the person's next try gets a new one, and goes through once.
    const again = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const sends = since(mark).filter((r) => r.path === CREATE_ORDER.path);
    expect(sends).toHaveLength(2);
    expect(sends[1]!.bearer).not.toBe(sends[0]!.bearer);
    expect(await d.sandboxOrders(ref)).toEqual([expect.objectContaining({ id: again.body.id })]);
  });

  it("a 401 to a transfer: no second send either", async () => {
    d.proxy.fail(CREATE_TRANSFER, { kind: "status", status: 401 });
    const ref = newRef();
    const mark = d.proxy.requests.length;
    const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", smallTransfer(ref));
    expectProblem(res, 502);
    expect(since(mark).filter((r) => r.path === CREATE_TRANSFER.path)).toHaveLength(1);
    expect(await d.sandboxTransfers(ref)).toHaveLength(0);
  });
});

describe("how the service's failures reach the browser", () => {
  // The time limit short: the tests wait for it to pass.
  dashboardWith({ SERVICE_TIMEOUT_MS: String(SERVICE_TIMEOUT_MS) });

  it("a service timeout is a 504 problem, answered at SERVICE_TIMEOUT_MS", async () => {
    d.proxy.fail(PROFILES, { kind: "delay", ms: SERVICE_TIMEOUT_MS + 1500 });
    // The service's answer comes 1.5 s after SERVICE_TIMEOUT_MS: a 504 means the app gave up first.
    const res = await d.as.viewer.call("GET", "/api/v2/profiles");
    expect(expectProblem(res, 504).title).toBe("Service Timeout");
  });

  it("a dropped connection is a 502 problem", async () => {
    d.proxy.fail(PROFILES, { kind: "drop-before" });
    const res = await d.as.viewer.call("GET", "/api/v2/profiles");
    expect(expectProblem(res, 502).title).toBe("Service Unreachable");
  });

  it("a token endpoint that refuses is a 502 problem that names no secret", async () => {
    // Drop the cached token, then fail the refresh.
    d.proxy.fail(PROFILES, { kind: "invalid-token" });
    d.proxy.fail(TOKEN, { kind: "status", status: 503 });
    const res = await d.as.viewer.call("GET", "/api/v2/profiles");
    const p = expectProblem(res, 502);
    expect(p.title).toBe("Service Sign-in Failed");
    expect(JSON.stringify(res.body)).not.toMatch(/sandbox-secret|client_secret/);
  });

  it("a 5xx the service answered passes through with its status", async () => {
    d.proxy.fail(PROFILES, { kind: "status", status: 503 });
    expectProblem(await d.as.viewer.call("GET", "/api/v2/profiles"), 503);
  });

  it("the service's 403 insufficient funds passes through with its meta, and is journaled as failed", async () => {
    const ref = newRef();
    const res = await d.as.trader.call(
      "POST",
      `/api/v2/profiles/${TRADING}/orders`,
      // More ETH than Trading holds (600), worth less than any limit or approval threshold.
      smallOrder(ref, { side: "SELL", price: "100.00", base_amount: "601" }),
    );
    const p = expectProblem(res, 403);
    expect(p.type).toMatch(/insufficient-funds$/);
    expect(p.meta).toMatchObject({ profile_id: TRADING, asset: "ETH", available: expect.any(String) });
    expect(await d.sandboxOrders(ref)).toHaveLength(0);
    expect(await d.journal(ref)).toEqual([expect.objectContaining({ status: "failed", http_status: 403 })]);
  });

  it("the service's 404 for an unknown profile passes through", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expectProblem(await d.as.trader.call("POST", `/api/v2/profiles/${unknown}/orders`, smallOrder(newRef())), 404);
    expectProblem(await d.as.viewer.call("GET", `/api/v2/profiles/${unknown}/balances`), 404);
    expectProblem(await d.as.viewer.call("GET", `/api/v2/profiles/${TRADING}/orders/${unknown}`), 404);
  });

  it("a 409 for a ref_id that belongs to a different order is a 409 problem, not a success", async () => {
    const ref = newRef();
    const theirs = await d.sandbox.call("POST", `/profiles/${TRADING}/orders`, smallOrder(ref, { price: "101.00" }));
    expect(theirs.status).toBe(200);
    const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(expectProblem(res, 409).detail).toContain(ref);
    expect(await d.sandboxOrders(ref)).toEqual([expect.objectContaining({ id: theirs.body.id })]);
    expect(await d.journal(ref)).toEqual([expect.objectContaining({ status: "failed", http_status: 409 })]);
  });
});

/** A small order through the dashboard with `fault` on its next `times` sends; what came back and what exists. */
async function createOrderThrough(fault: Fault, times: number) {
  d.proxy.fail(CREATE_ORDER, fault, times);
  const ref = newRef();
  const mark = d.proxy.requests.length;
  const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
  if (fault.kind === "delay") {
    // A delayed request may still land after the answer: the clock moves past its delay, and
    // every attempt sent reaches the service.
    d.app.clock.advance(fault.ms);
    const attempts = since(mark).filter((r) => r.path === CREATE_ORDER.path).length;
    await d.proxy.waitFor(CREATE_ORDER, attempts, { forwarded: true, since: mark });
  }
  const sent = since(mark).filter((r) => r.path === CREATE_ORDER.path);
  return { res, ref, sent, orders: await d.sandboxOrders(ref), journal: await d.journal(ref) };
}

describe("safe retries of a create order, with the upstream failing", () => {
  // The time limit short: the tests wait for it to pass.
  dashboardWith({ SERVICE_TIMEOUT_MS: String(SERVICE_TIMEOUT_MS) });

  const once: [string, Fault][] = [
    ["a timeout (the request lands late)", { kind: "delay", ms: SERVICE_TIMEOUT_MS + 1000 }],
    ["a timeout after the service created it", { kind: "forward-then-hold" }],
    ["a 500 after the service created it (the answer is lost)", { kind: "forward-then-status", status: 500 }],
    ["a 500 without reaching the service", { kind: "status", status: 500 }],
    ["a 503 without reaching the service", { kind: "status", status: 503 }],
    ["a connection dropped before the service saw it", { kind: "drop-before" }],
    ["a connection dropped after the service created it", { kind: "drop-after" }],
  ];

  it.each(once)("once, %s: answers the one order it created", async (_, fault) => {
    const { res, ref, sent, orders, journal } = await createOrderThrough(fault, 1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ref_id: ref, profile_id: TRADING });
    expect(sent.length).toBeGreaterThanOrEqual(2);
    // Every attempt carried the same ref_id (the proxy forwarded them; the sandbox would refuse another).
    expect(orders).toEqual([expect.objectContaining({ id: res.body.id, ref_id: ref })]);
    expect(journal).toEqual([
      expect.objectContaining({ status: "succeeded", http_status: 200, result_id: res.body.id, ref_id: ref }),
    ]);
  });

  it("every attempt's answer lost after the service created it: found by ref_id, answered with it", async () => {
    const { res, ref, sent, orders, journal } = await createOrderThrough({ kind: "forward-then-status" }, 10);
    expect(res.status).toBe(200);
    expect(sent).toHaveLength(3);
    expect(orders).toEqual([expect.objectContaining({ id: res.body.id, ref_id: ref })]);
    expect(journal).toEqual([expect.objectContaining({ status: "succeeded", result_id: res.body.id })]);
  });

  it("every attempt lands late: no second order; the final look-up finds the first", async () => {
    const { res, sent, orders, journal } = await createOrderThrough(
      { kind: "delay", ms: SERVICE_TIMEOUT_MS + 300 },
      10,
    );
    expect(sent).toHaveLength(3);
    expect(res.status).toBe(200);
    expect(orders).toEqual([expect.objectContaining({ id: res.body.id })]);
    expect(journal).toEqual([expect.objectContaining({ status: "succeeded", result_id: res.body.id })]);
  });

  it("the service never answers and never saw it: a 504 problem, nothing created, journaled as failed", async () => {
    const { res, sent, orders, journal } = await createOrderThrough({ kind: "hold" }, 10);
    expect(expectProblem(res, 504).title).toBe("Service Timeout");
    expect(sent).toHaveLength(3);
    expect(orders).toHaveLength(0);
    expect(journal).toEqual([expect.objectContaining({ status: "failed", http_status: 504 })]);
  });

  it("every connection dropped before it reached the service: a 502 problem, nothing created", async () => {
    const { res, orders, journal } = await createOrderThrough({ kind: "drop-before" }, 10);
    expectProblem(res, 502);
    expect(orders).toHaveLength(0);
    expect(journal).toEqual([expect.objectContaining({ status: "failed", http_status: 502 })]);
  });

  it("the service keeps answering 503: its problem, nothing created, journaled as failed", async () => {
    const { res, sent, orders, journal } = await createOrderThrough({ kind: "status", status: 503 }, 10);
    expectProblem(res, 503);
    expect(sent).toHaveLength(3);
    expect(orders).toHaveLength(0);
    expect(journal).toEqual([expect.objectContaining({ status: "failed", http_status: 503 })]);
  });
});

describe("safe retries of a create internal transfer, with the upstream failing", () => {
  // The time limit short: the tests wait for it to pass.
  dashboardWith({ SERVICE_TIMEOUT_MS: String(SERVICE_TIMEOUT_MS) });

  const faults: [string, Fault][] = [
    ["a 500 after the service created it", { kind: "forward-then-status", status: 500 }],
    ["a connection dropped after the service created it", { kind: "drop-after" }],
    ["a timeout after the service created it", { kind: "forward-then-hold" }],
  ];

  it.each(faults)("%s: answers the one transfer it created", async (_, fault) => {
    d.proxy.fail(CREATE_TRANSFER, fault);
    const ref = newRef();
    const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", smallTransfer(ref));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ref_id: ref, direction: "DEBIT", amount: "1.25" });
    // One sending leg with this ref_id, and its group holds one debit and one credit.
    expect(await d.sandboxTransfers(ref)).toEqual([expect.objectContaining({ id: res.body.id, direction: "DEBIT" })]);
    const group = await d.sandbox.call("GET", `/transfer/transfers?group_ids=${res.body.group_id}`);
    expect(group.body.items.map((t: { direction: string }) => t.direction).sort()).toEqual(["CREDIT", "DEBIT"]);
    expect(await d.journal(ref)).toEqual([
      expect.objectContaining({ kind: "transfer", status: "succeeded", result_id: res.body.id }),
    ]);
  });
});
