import { describe, expect, it } from "vitest";
import { createMetrics } from "@/lib/server/metrics";
import { createUpstreamClient, TokenRequestError, upstreamProblem } from "@/lib/server/upstream/client";
import { createUpstreamLimiter, PUBLISHED_RATES, timeLimit, UpstreamThrottled } from "@/lib/server/upstream/limiter";
import { classOf, meteredFetch, routeOf } from "@/lib/server/upstream/metered-fetch";
import { createTokenCache } from "@/lib/server/upstream/token-cache";

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
    ["/something/else", "other"],
  ])("%s is counted as %s", (path, route) => {
    expect(routeOf(path)).toBe(route);
  });

  it("counts internal transfers and the order book against their own limits", () => {
    expect(classOf("POST", "/transfer/internal")).toBe("transfer");
    expect(classOf("GET", "/transfer/transfers")).toBe("api");
    expect(classOf("GET", "/markets/{market}/order-book")).toBe("order-book");
    expect(classOf("POST", "/profiles/{profile_id}/orders")).toBe("api");
  });
});

describe("the metered fetch", () => {
  it("counts each call by template and status, and each token request", async () => {
    const service = fakeService();
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES });
    const fetch = meteredFetch({ fetch: service.fetch, limiter, metrics, baseUrl: BASE, tokenUrl: TOKEN_URL });
    const labels = { route: "/profiles/{profile_id}/balances", status: "200" };
    const before = await counted("dashboard_upstream_requests_total", labels);
    const tokensBefore = await counted("dashboard_upstream_token_requests_total", { status: "200" });
    await fetch(`${BASE}/profiles/a/balances`);
    await fetch(`${BASE}/profiles/b/balances`);
    await fetch(TOKEN_URL, { method: "POST" });
    expect(await counted("dashboard_upstream_requests_total", labels)).toBe(before + 2);
    expect(await counted("dashboard_upstream_token_requests_total", { status: "200" })).toBe(tokensBefore + 1);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'dashboard_upstream_request_duration_seconds_bucket{le="0.005",route="/profiles/{profile_id}/balances"}',
    );
  });

  it("tells the limiter about a 429 and its Retry-After, and counts it", async () => {
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES });
    const fetch = meteredFetch({
      fetch: async () => new Response("{}", { status: 429, headers: { "retry-after": "30" } }),
      limiter,
      metrics,
      baseUrl: BASE,
      tokenUrl: TOKEN_URL,
    });
    const before = await counted("dashboard_upstream_429_total", { class: "transfer" });
    const res = await fetch(`${BASE}/transfer/internal`, { method: "POST", signal: timeLimit(1000) });
    expect(res.status).toBe(429);
    expect(await counted("dashboard_upstream_429_total", { class: "transfer" })).toBe(before + 1);
    expect(limiter.heldFor("api")).toBeGreaterThan(29_000);
    // The next call is not sent into the refusal: its time limit ends long before the hold.
    await expect(fetch(`${BASE}/orders`, { signal: timeLimit(1000) })).rejects.toBeInstanceOf(UpstreamThrottled);
  });
});

describe("the token endpoint's 429", () => {
  const clientOver = (service: ReturnType<typeof fakeService>, timeoutMs: number) => {
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES });
    const fetch = meteredFetch({ fetch: service.fetch, limiter, metrics, baseUrl: BASE, tokenUrl: TOKEN_URL });
    const tokens = createTokenCache({ tokenUrl: TOKEN_URL, clientId: "dashboard", clientSecret: "s", fetch });
    return createUpstreamClient({ baseUrl: BASE, tokens, fetch, limiter, timeoutMs });
  };

  it("is waited out (Retry-After) and retried within the call's time limit", async () => {
    const service = fakeService([{ status: 429, retryAfter: "1" }]);
    const client = clientOver(service, 5000);
    const res = await client.request({ method: "GET", path: "/profiles" });
    expect(res.status).toBe(200);
    const tokenCalls = service.seen.filter((s) => s.url === TOKEN_URL);
    expect(tokenCalls).toHaveLength(2);
    expect(tokenCalls[1]!.at - tokenCalls[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it("without Retry-After, is retried after a back-off rather than at once", async () => {
    const service = fakeService([{ status: 429 }]);
    const client = clientOver(service, 5000);
    expect((await client.request({ method: "GET", path: "/profiles" })).status).toBe(200);
    const [first, second] = service.seen.filter((s) => s.url === TOKEN_URL);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
  });

  it("fails as Service Busy (not Sign-in Failed) when the wait would outlast the time limit", async () => {
    const service = fakeService([{ status: 429, retryAfter: "10" }]);
    const client = clientOver(service, 2000);
    const started = Date.now();
    const error = await client.request({ method: "GET", path: "/profiles" }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(upstreamProblem(error as TokenRequestError)).toMatchObject({ status: 503, title: "Service Busy" });
    expect(service.seen.filter((s) => s.url === TOKEN_URL)).toHaveLength(1);
  });
});
