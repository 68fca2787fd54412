import { describe, expect, it } from "vitest";
import { createMetrics } from "@/lib/server/ops/metrics";
import { createUpstreamClient, retryAfterHeaders, upstreamProblem, UpstreamLocked } from "@/lib/server/upstream/client";
import { PUBLISHED_RATES } from "@/lib/server/upstream/budget-rates";
import { createUpstreamLimiter } from "@/lib/server/upstream/limiter";
import { classOf, meteredFetch, routeOf } from "@/lib/server/upstream/metered-fetch";
import { createTokenCache } from "@/lib/server/upstream/token-cache";
import { timeLimit } from "@/lib/server/upstream/time-limit";

const BASE = "http://127.0.0.1:9/sandbox/v2";
const TOKEN_URL = "http://127.0.0.1:9/sandbox/oauth2/token";

/** The metrics the meteredFetch of these tests count into. */
const metrics = createMetrics();

/** A counter's value for these labels in that registry. */
async function counted(name: string, labels: Record<string, string>): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  const { values } = await metric!.get();
  const hit = values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x));
  return hit?.value ?? 0;
}

/** A fake service: the token endpoint answers from `tokenAnswers` in turn (then 200), the API 200. */
function fakeService(tokenAnswers: { status: number; retryAfter?: string }[] = []) {
  const seen: { url: string; at: number }[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    seen.push({ url, at: Date.now() });
    if (url === TOKEN_URL) {
      const next = tokenAnswers.shift() ?? { status: 200 };
      if (next.status !== 200) {
        return new Response(JSON.stringify({ title: "Too Many Requests", status: next.status }), {
          status: next.status,
          headers: {
            "content-type": "application/problem+json",
            ...(next.retryAfter ? { "retry-after": next.retryAfter } : {}),
          },
        });
      }
      return Response.json({ access_token: "t", token_type: "bearer", expires_in: 3600 });
    }
    return Response.json({ items: [] });
  };
  return { fetch, seen };
}

describe("path templates and rate classes", () => {
  it.each([
    ["/profiles", "/profiles"],
    ["/profiles/p-1/balances", "/profiles/{profile_id}/balances"],
    ["/profiles/p-1/orders/o-9", "/profiles/{profile_id}/orders/{id}"],
    ["/transfer/transfers/t-1", "/transfer/transfers/{id}"],
    ["/markets/BTCUSD/order-book", "/markets/{market}/order-book"],
    ["/markets/BTCUSD/recent-executions", "/markets/{market}/recent-executions"],
    ["/transfer/internal", "/transfer/internal"],
    ["/something/else", "other"],
    ["/profiles/p-1/orders/o-9/extra", "other"],
  ])("%s is counted as %s", (path, route) => {
    expect(routeOf(path)).toBe(route);
  });

  it("counts internal transfers, the order book with recent executions, and creates against their own budgets", () => {
    expect(classOf("POST", "/transfer/internal")).toBe("transfer");
    expect(classOf("GET", "/transfer/transfers")).toBe("api");
    expect(classOf("GET", "/markets/{market}/order-book")).toBe("order-book");
    expect(classOf("GET", routeOf("/markets/BTCUSD/recent-executions"))).toBe("order-book");
    expect(classOf("GET", "/markets/{market}/ticker")).toBe("api");
    expect(classOf("POST", "/profiles/{profile_id}/orders")).toBe("create");
    expect(classOf("DELETE", "/profiles/{profile_id}/orders/{id}")).toBe("create");
    expect(classOf("GET", "/profiles/{profile_id}/orders/{id}")).toBe("api");
    expect(classOf("GET", "/orders")).toBe("api");
    expect(classOf("GET", "other")).toBe("api");
  });

  it("reads the class from a concrete path as from its template", () => {
    expect(classOf("GET", "/markets/BTCUSD/recent-executions")).toBe("order-book");
    expect(classOf("POST", "/profiles/p-1/orders")).toBe("create");
    expect(classOf("delete", "/profiles/p-1/orders/o-1")).toBe("create");
    expect(classOf("GET", "/profiles/p-1/orders/o-1")).toBe("api");
  });
});

describe("the metered fetch", () => {
  it("counts each call by template and status, and each token request, and tells onCall of each", async () => {
    const service = fakeService();
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES });
    const told: number[] = [];
    const onCall = (ms: number) => told.push(ms);
    const fetch = meteredFetch({ fetch: service.fetch, limiter, metrics, baseUrl: BASE, tokenUrl: TOKEN_URL, onCall });
    const labels = { route: "/profiles/{profile_id}/balances", status: "200" };
    const before = await counted("dashboard_upstream_requests_total", labels);
    const tokensBefore = await counted("dashboard_upstream_token_requests_total", { status: "200" });
    await fetch(`${BASE}/profiles/a/balances`);
    await fetch(`${BASE}/profiles/b/balances`);
    await fetch(TOKEN_URL, { method: "POST" });
    expect(await counted("dashboard_upstream_requests_total", labels)).toBe(before + 2);
    expect(await counted("dashboard_upstream_token_requests_total", { status: "200" })).toBe(tokensBefore + 1);
    expect(told).toHaveLength(3);
    expect(told.every((ms) => ms >= 0)).toBe(true);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'dashboard_upstream_request_duration_seconds_bucket{le="0.005",route="/profiles/{profile_id}/balances"}',
    );
  });

  it("meets a 429 with Retry-After by locking every call out for it: thrown, counted, nothing sent meanwhile", async () => {
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES });
    const sent: string[] = [];
    const fetch = meteredFetch({
      fetch: async (input) => {
        sent.push(String(input));
        return new Response("{}", { status: 429, headers: { "retry-after": "30" } });
      },
      limiter,
      metrics,
      baseUrl: BASE,
      tokenUrl: TOKEN_URL,
    });
    const before = await counted("dashboard_upstream_429_total", { class: "transfer" });
    const started = Date.now();
    const error = await fetch(`${BASE}/transfer/internal`, { method: "POST", signal: timeLimit(1000) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UpstreamLocked);
    expect(error).toMatchObject({ stage: "request", maybeDelivered: false });
    const until = (error as UpstreamLocked).until;
    expect(until - started).toBeGreaterThanOrEqual(29_000);
    expect(until - Date.now()).toBeLessThanOrEqual(30_000);
    expect(await counted("dashboard_upstream_429_total", { class: "transfer" })).toBe(before + 1);
    expect(await limiter.lockedUntil()).toBe(until);
    // Every class is held, the token endpoint's too, whatever time limit the call has: refused unsent.
    for (const url of [`${BASE}/orders`, `${BASE}/markets/BTCUSD/order-book`, TOKEN_URL]) {
      await expect(fetch(url, { signal: timeLimit(60_000) })).rejects.toBeInstanceOf(UpstreamLocked);
    }
    expect(sent).toHaveLength(1);
  });

  it("meets a 429 without Retry-After by locking every call out for the penalty, and the gauge shows when it ends", async () => {
    const own = createMetrics();
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES, penaltyMs: 300_000 });
    own.watchLockout(() => limiter.lockedUntil());
    const gauge = async () => await own.registry.getSingleMetricAsString("dashboard_upstream_locked_until_seconds");
    expect(await gauge()).toMatch(/^dashboard_upstream_locked_until_seconds 0$/m);
    const fetch = meteredFetch({
      fetch: async () => new Response("{}", { status: 429 }),
      limiter,
      metrics: own,
      baseUrl: BASE,
      tokenUrl: TOKEN_URL,
    });
    const error = (await fetch(`${BASE}/orders`).catch((e: unknown) => e)) as UpstreamLocked;
    expect(error).toBeInstanceOf(UpstreamLocked);
    expect(error.until - Date.now()).toBeGreaterThan(299_000);
    expect(await gauge()).toMatch(
      new RegExp(`^dashboard_upstream_locked_until_seconds ${Math.ceil(error.until / 1000)}$`, "m"),
    );
    // What a person reads: a 503 that says when, in the problem and in Retry-After.
    const p = upstreamProblem(error);
    expect(p).toMatchObject({ status: 503, meta: { locked_until: new Date(error.until).toISOString() } });
    expect(Number(retryAfterHeaders(p)["Retry-After"])).toBeGreaterThanOrEqual(299);
  });
});

describe("the token endpoint's 429", () => {
  const clientOver = (service: ReturnType<typeof fakeService>, penaltyMs: number) => {
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES, penaltyMs });
    const fetch = meteredFetch({ fetch: service.fetch, limiter, metrics, baseUrl: BASE, tokenUrl: TOKEN_URL });
    const tokens = createTokenCache({ tokenUrl: TOKEN_URL, clientId: "dashboard", clientSecret: "s", fetch });
    return { client: createUpstreamClient({ baseUrl: BASE, tokens, fetch, timeoutMs: 5000 }), limiter };
  };

  it("locks every call out: the call fails at once as a lockout, and nothing is sent until it ends", async () => {
    const service = fakeService([{ status: 429 }]);
    const { client, limiter } = clientOver(service, 300_000);
    const started = Date.now();
    const error = await client.request({ method: "GET", path: "/profiles" }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(UpstreamLocked);
    expect(error).toMatchObject({ stage: "token" });
    expect(upstreamProblem(error as UpstreamLocked)).toMatchObject({ status: 503, title: "Service Locked Out" });
    await expect(client.request({ method: "GET", path: "/profiles" })).rejects.toBeInstanceOf(UpstreamLocked);
    expect(service.seen.map((s) => s.url)).toEqual([TOKEN_URL]);
    expect(await limiter.lockedUntil()).toBeGreaterThan(Date.now() + 298_000);
  });

  it("for Retry-After when it says so, after which the call goes through", async () => {
    const service = fakeService([{ status: 429, retryAfter: "1" }]);
    const { client, limiter } = clientOver(service, 300_000);
    await expect(client.request({ method: "GET", path: "/profiles" })).rejects.toBeInstanceOf(UpstreamLocked);
    const until = await limiter.lockedUntil();
    expect(until - Date.now()).toBeLessThanOrEqual(1000);
    while ((await limiter.lockedUntil()) > 0) await new Promise((r) => setTimeout(r, 50));
    expect((await client.request({ method: "GET", path: "/profiles" })).status).toBe(200);
    const tokenCalls = service.seen.filter((s) => s.url === TOKEN_URL);
    expect(tokenCalls).toHaveLength(2);
    expect(tokenCalls[1]!.at).toBeGreaterThanOrEqual(until - 5);
  });
});
