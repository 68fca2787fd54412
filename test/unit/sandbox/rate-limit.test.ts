import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { RateLimiter } from "@/lib/sandbox/rate-limit";
import { handleSandboxRequest } from "@/lib/sandbox/http";
import { SandboxRuntime } from "@/lib/sandbox/runtime";
import type { SandboxConfig } from "@/lib/sandbox/config";
import { CLIENT, testConfig } from "../../support/sandbox-server";

describe("the sandbox's rate limiter", () => {
  it("refuses a caller that earned a 429 for the whole penalty, on every class, and no one else", () => {
    let t = 0;
    const limiter = new RateLimiter(() => t, { penaltyMs: 300_000 });
    expect(limiter.take("client:a", "api", 2)).toBeNull();
    expect(limiter.take("client:a", "api", 2)).toBeNull();
    expect(limiter.take("client:a", "api", 2)).toEqual({ retryAfterSeconds: 300, reason: "penalty" });
    t += 60_000; // the bucket is long full again, but the penalty holds
    expect(limiter.take("client:a", "transfer", 2)).toEqual({ retryAfterSeconds: 240, reason: "penalty" });
    expect(limiter.take("client:b", "api", 2)).toBeNull();
    t += 240_000;
    expect(limiter.take("client:a", "api", 2)).toBeNull();
  });

  it("without a penalty configured, says when the bucket has a token again", () => {
    let t = 0;
    const limiter = new RateLimiter(() => t, { penaltyMs: 0 });
    expect(limiter.take("client:a", "token", 1)).toBeNull();
    expect(limiter.take("client:a", "token", 1)).toEqual({ retryAfterSeconds: 1, reason: "rate" });
    t += 1000;
    expect(limiter.take("client:a", "token", 1)).toBeNull();
  });

  it("forgets callers once their buckets are full again", () => {
    let t = 0;
    const limiter = new RateLimiter(() => t, { penaltyMs: 1000 });
    for (let i = 0; i < 10_000; i++) limiter.take(`ip:10.0.${i >> 8}.${i & 255}`, "api", 50);
    expect(limiter.size).toBe(10_000);
    t += 2000;
    limiter.take("ip:192.0.2.1", "api", 50);
    expect(limiter.size).toBe(1);
  });

  it("keeps at most maxKeys callers however fast new ones come", () => {
    const limiter = new RateLimiter(() => 0, { maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) limiter.take(`ip:${i}`, "api", 50);
    expect(limiter.size).toBeLessThanOrEqual(100);
  });
});

describe("the sandbox's limits over its HTTP handlers", () => {
  let t = 1_000_000;
  const opened: { runtime: SandboxRuntime; config: SandboxConfig }[] = [];
  afterEach(() => {
    for (const { runtime, config } of opened.splice(0)) {
      runtime.stop();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  });

  function sandboxWith(overrides: Partial<SandboxConfig>) {
    const config = testConfig({ ratePenaltySeconds: 300, ...overrides });
    const runtime = new SandboxRuntime(config, () => t);
    opened.push({ runtime, config });
    const send = (path: string, init: RequestInit = {}, ip: string | null = "198.51.100.7") =>
      handleSandboxRequest(new Request(`http://sandbox.test/sandbox${path}`, init), path, runtime, ip);
    const tokenRequest = (secret: string, ip?: string) =>
      send(
        "/oauth2/token",
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "client_credentials", client_id: CLIENT.id, client_secret: secret }),
        },
        ip,
      );
    const token = runtime.tokens.issue(runtime.clients.get(CLIENT.id)!, [
      ...runtime.clients.get(CLIENT.id)!.scopes,
    ]).access_token;
    const asClient = (path: string, init: RequestInit = {}) =>
      send(path, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
    return { send, tokenRequest, asClient };
  }

  it("failed token requests naming the dashboard's client do not spend its budget", async () => {
    const s = sandboxWith({ tokenRatePerSecond: 1 });
    const failed = [];
    for (let i = 0; i < 20; i++) failed.push((await s.tokenRequest("wrong-secret")).status);
    expect(failed[0]).toBe(401);
    expect(failed.slice(1)).toEqual(Array(19).fill(429));
    // The same address, the right secret: the client's own budget is untouched.
    expect((await s.tokenRequest(CLIENT.secret)).status).toBe(200);
  });

  it("limits the token endpoint per client at its rate; its 429 has no Retry-After and locks the client out", async () => {
    const s = sandboxWith({ tokenRatePerSecond: 1, ratePenaltySeconds: 5 });
    expect((await s.tokenRequest(CLIENT.secret)).status).toBe(200);
    const second = await s.tokenRequest(CLIENT.secret, "203.0.113.9");
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBeNull();
    // As the service "throttles the caller for minutes": the bucket refilled, the lockout holds, API calls too.
    t += 1000;
    expect((await s.tokenRequest(CLIENT.secret)).status).toBe(429);
    expect((await s.asClient("/v2/profiles")).status).toBe(429);
    t += 4000;
    expect((await s.tokenRequest(CLIENT.secret)).status).toBe(200);
    expect((await s.asClient("/v2/profiles")).status).toBe(200);
  });

  it("limits anonymous market data per address, apart from the dashboard's client", async () => {
    const s = sandboxWith({ apiRatePerSecond: 3 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await s.send("/v2/markets/BTCUSD/ticker")).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await s.send("/v2/markets/BTCUSD/ticker", {}, "192.0.2.55")).status).toBe(200);
    expect((await s.asClient("/v2/markets/BTCUSD/ticker")).status).toBe(200);
  });

  it("limits callers with a bad token per address, before anything else", async () => {
    const s = sandboxWith({ apiRatePerSecond: 2 });
    const bad = { headers: { authorization: "Bearer nope" } };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await s.send("/v2/profiles", bad)).status);
    expect(statuses).toEqual([401, 401, 429]);
    expect((await s.asClient("/v2/profiles")).status).toBe(200);
  });

  it("counts recent executions with the order book, at its rate, apart from the rest of the API", async () => {
    const s = sandboxWith({ orderBookRatePerSecond: 10, apiRatePerSecond: 50 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await s.asClient("/v2/markets/ETHUSD/order-book")).status);
    for (let i = 0; i < 5; i++) statuses.push((await s.asClient("/v2/markets/ETHUSD/recent-executions")).status);
    expect(statuses).toEqual(Array(10).fill(200));
    expect((await s.asClient("/v2/markets/ETHUSD/recent-executions")).status).toBe(429);
  });

  it("limits anonymous recent executions per address at the order book's rate", async () => {
    const s = sandboxWith({ orderBookRatePerSecond: 3, apiRatePerSecond: 50 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await s.send("/v2/markets/BTCUSD/recent-executions")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("limits the order book at its own rate, then refuses the client everything for the penalty, with no Retry-After", async () => {
    const s = sandboxWith({ orderBookRatePerSecond: 10, apiRatePerSecond: 50, ratePenaltySeconds: 5 });
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await s.asClient("/v2/markets/ETHUSD/order-book")).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    const refused = await s.asClient("/v2/profiles");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect((await refused.json()).detail).toMatch(/refused for 5 more seconds/);
    expect((await s.tokenRequest(CLIENT.secret)).status).toBe(429);
    t += 5000;
    expect((await s.asClient("/v2/profiles")).status).toBe(200);
  });
});
