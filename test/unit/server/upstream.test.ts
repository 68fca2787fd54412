import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createUpstreamClient,
  TokenRequestError,
  UpstreamCredentialsRefused,
  UpstreamScopeMissing,
  UpstreamTimeout,
  UpstreamUnreachable,
  upstreamProblem,
  type UpstreamClient,
} from "@/lib/server/upstream/client";
import { SCOPES } from "@/lib/spec";
import { createTokenCache, scopeKeyOf, type TokenCacheOptions } from "@/lib/server/upstream/token-cache";

const CLIENT_ID = "dashboard";
const SECRET = "s3cret-Do-Not-Leak-7f2b";
const ORDERS = "exchange:write_order";
const TRANSFERS = "transfer:write_internal_transfer";

/**
 * A real HTTP server playing the service: a client-credentials token endpoint (form or
 * Basic client authentication) and a few API routes that check the bearer token.
 */
class FakeService {
  server!: Server;
  base = "";
  tokenRequests: { scope: string; auth: "basic" | "post" }[] = [];
  apiHits: { path: string; token: string }[] = [];
  issued = new Map<string, string>();
  revoked = new Set<string>();
  expiresIn = 3600;
  tokenDelayMs = 30;
  tokenFails = false;
  tokenTooFast = false;
  /** The scopes the client's credentials are granted; asking for another is invalid_scope. */
  granted: readonly string[] = SCOPES;
  /** Whether invalid_scope names the refused scopes in its error_description. */
  namesRefusedScopes = true;

  async start() {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  reset() {
    this.tokenRequests = [];
    this.apiHits = [];
    this.issued.clear();
    this.revoked.clear();
    this.expiresIn = 3600;
    this.tokenDelayMs = 30;
    this.tokenFails = false;
    this.tokenTooFast = false;
    this.granted = SCOPES;
    this.namesRefusedScopes = true;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    const url = new URL(req.url ?? "/", this.base);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };

    if (url.pathname === "/oauth2/token" && req.method === "POST") {
      const form = new URLSearchParams(raw);
      let id = form.get("client_id");
      let secret = form.get("client_secret");
      let auth: "basic" | "post" = "post";
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
      if (basic) {
        const [user, pass] = Buffer.from(basic[1]!, "base64").toString().split(":");
        const decode = (s = "") => decodeURIComponent(s.replace(/\+/g, " "));
        [id, secret, auth] = [decode(user), decode(pass), "basic"];
      }
      if (form.get("grant_type") !== "client_credentials") return json(400, { error: "unsupported_grant_type" });
      this.tokenRequests.push({ scope: form.get("scope") ?? "", auth });
      await sleep(this.tokenDelayMs);
      if (this.tokenFails) return json(503, { error: "temporarily_unavailable" });
      if (this.tokenTooFast) {
        return json(429, { title: "Too Many Requests", status: 429 }, { "content-type": "application/problem+json" });
      }
      if (id !== CLIENT_ID || secret !== SECRET) {
        // Careless servers echo what they were sent: the client must not repeat it.
        return json(401, { error: "invalid_client", error_description: `bad secret ${secret}` });
      }
      const refused = (form.get("scope") ?? "").split(" ").filter((scope) => !this.granted.includes(scope));
      if (refused.length > 0) {
        const error_description = this.namesRefusedScopes ? `scope ${refused.join(" ")} not allowed` : "bad scope";
        return json(400, { error: "invalid_scope", error_description });
      }
      const token = `tok-${this.tokenRequests.length}-${randomBytes(8).toString("hex")}`;
      this.issued.set(token, form.get("scope") ?? "");
      return json(200, {
        access_token: token,
        token_type: "bearer",
        expires_in: this.expiresIn,
        scope: form.get("scope"),
      });
    }

    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    this.apiHits.push({ path: url.pathname, token });
    // As the real service: a 401 without a WWW-Authenticate challenge saying why.
    if (url.pathname === "/v2/always-401") return json(401, { title: "Unauthorized", status: 401 });
    if (!this.issued.has(token) || this.revoked.has(token)) return json(401, { title: "Unauthorized", status: 401 });

    switch (url.pathname) {
      case "/v2/echo":
        return json(200, {
          method: req.method,
          query: [...url.searchParams.entries()],
          body: raw ? JSON.parse(raw) : null,
          content_type: req.headers["content-type"] ?? null,
          scope: this.issued.get(token),
        });
      case "/v2/problem":
        return json(
          422,
          { type: "about:blank", title: "Unprocessable", status: 422 },
          {
            "content-type": "application/problem+json",
          },
        );
      case "/v2/text":
        res.writeHead(200, { "content-type": "text/plain" });
        return res.end("plain words");
      case "/v2/empty":
        res.writeHead(204);
        return res.end();
      case "/v2/slow":
        await sleep(2000);
        return json(200, { late: true });
      case "/v2/drop":
        return req.socket.destroy();
      default:
        return json(404, { title: "Not Found", status: 404 });
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const service = new FakeService();
beforeAll(() => service.start());
afterAll(() => service.stop());
afterEach(() => service.reset());

const tokensFor = (over: Partial<TokenCacheOptions> = {}) =>
  createTokenCache({ tokenUrl: `${service.base}/oauth2/token`, clientId: CLIENT_ID, clientSecret: SECRET, ...over });

const clientFor = (over: Partial<TokenCacheOptions> = {}, timeoutMs?: number): UpstreamClient =>
  createUpstreamClient({ baseUrl: `${service.base}/v2/`, tokens: tokensFor(over), timeoutMs, scopes: [ORDERS] });

/** A closed port on loopback: connecting to it is refused. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("token cache", () => {
  it("makes exactly one token request for 100 concurrent callers", async () => {
    const tokens = tokensFor();
    const got = await Promise.all(Array.from({ length: 100 }, () => tokens.getToken([ORDERS])));
    expect(service.tokenRequests).toEqual([{ scope: ORDERS, auth: "post" }]);
    expect(new Set(got).size).toBe(1);
    expect(service.issued.has(got[0]!)).toBe(true);
  });

  it("keeps one token per scope set, whatever the order of the scopes", async () => {
    const tokens = tokensFor();
    const both = await tokens.getToken([TRANSFERS, ORDERS]);
    expect(await tokens.getToken([ORDERS, TRANSFERS, ORDERS])).toBe(both);
    const ordersOnly = await tokens.getToken([ORDERS]);
    expect(ordersOnly).not.toBe(both);
    expect(service.tokenRequests.map((r) => r.scope)).toEqual([`${ORDERS} ${TRANSFERS}`, ORDERS]);
    expect(scopeKeyOf([TRANSFERS, ORDERS, ORDERS])).toBe(`${ORDERS} ${TRANSFERS}`);
  });

  it("refreshes shortly before expiry, not after", async () => {
    let clock = 1_000_000;
    const tokens = tokensFor({ now: () => clock, refreshBeforeMs: 60_000 });
    const first = await tokens.getToken([ORDERS]);
    clock += 3_539_000; // 61 s of lifetime left
    expect(await tokens.getToken([ORDERS])).toBe(first);
    clock += 2_000; // 59 s left
    const second = await tokens.getToken([ORDERS]);
    expect(second).not.toBe(first);
    expect(service.tokenRequests).toHaveLength(2);
  });

  it("refreshes a token shorter-lived than the margin at half its life", async () => {
    service.expiresIn = 30;
    let clock = 0;
    const tokens = tokensFor({ now: () => clock });
    const first = await tokens.getToken([ORDERS]);
    clock = 14_000;
    expect(await tokens.getToken([ORDERS])).toBe(first);
    clock = 15_000;
    expect(await tokens.getToken([ORDERS])).not.toBe(first);
  });

  it("keeps serving a still-valid token when its early refresh fails", async () => {
    let clock = 0;
    const tokens = tokensFor({ now: () => clock });
    const first = await tokens.getToken([ORDERS]);
    service.tokenFails = true;
    clock = 3_580_000; // inside the refresh margin, not yet expired
    expect(await tokens.getToken([ORDERS])).toBe(first);
    clock = 3_600_000; // expired
    await expect(tokens.getToken([ORDERS])).rejects.toBeInstanceOf(TokenRequestError);
  });

  it("authenticates with HTTP Basic when asked", async () => {
    await tokensFor({ clientAuth: "client_secret_basic" }).getToken([ORDERS]);
    expect(service.tokenRequests).toEqual([{ scope: ORDERS, auth: "basic" }]);
  });

  it("drops a token only while it is still the cached one", async () => {
    const tokens = tokensFor();
    const first = await tokens.getToken([ORDERS]);
    tokens.invalidate(ORDERS, first);
    const second = await tokens.getToken([ORDERS]);
    expect(second).not.toBe(first);
    tokens.invalidate(ORDERS, first); // stale: the newer token stays
    expect(await tokens.getToken([ORDERS])).toBe(second);
    expect(service.tokenRequests).toHaveLength(2);
  });

  it("turns a refusal into a TokenRequestError that does not repeat the secret", async () => {
    const error = await tokensFor({ clientSecret: `${SECRET}-wrong` })
      .getToken([ORDERS])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(error).toMatchObject({ status: 401, error: "invalid_client", stage: "token", maybeDelivered: false });
    expect((error as Error).message).toContain("[redacted]");
    expect(leaks(error, [SECRET])).toBe(false);
  });

  it("keeps the status of a token endpoint answer that is not OAuth (a 429 problem)", async () => {
    service.tokenTooFast = true;
    const error = await tokensFor()
      .getToken([ORDERS])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(error).toMatchObject({ status: 429, error: undefined, stage: "token" });
    expect((error as Error).message).toContain("HTTP 429");
    // A person is told the service is throttling the dashboard, not that it is down.
    expect(upstreamProblem(error as TokenRequestError)).toMatchObject({ status: 503, title: "Service Busy" });
  });

  it("refuses plain http to anything but loopback", () => {
    const options = { clientId: CLIENT_ID, clientSecret: SECRET };
    expect(() => createTokenCache({ ...options, tokenUrl: "http://oauth.example.test/oauth2/token" })).toThrow(/https/);
    expect(() =>
      createTokenCache({ ...options, tokenUrl: "http://oauth.example.test/token", allowInsecureHttp: true }),
    ).not.toThrow();
    expect(() =>
      createTokenCache({ ...options, tokenUrl: "http://localhost:3000/sandbox/oauth2/token" }),
    ).not.toThrow();
  });
});

describe("upstream client", () => {
  it("shares one token request among 100 concurrent calls", async () => {
    const client = clientFor();
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => client.request({ method: "GET", path: "/echo" })),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(service.tokenRequests).toHaveLength(1);
    expect(service.apiHits).toHaveLength(100);
  });

  it("sends JSON and the query, and returns status, parsed body and headers", async () => {
    const client = clientFor();
    const body = { side: "BUY", base_amount: "0.10000001", price: "65000.25", metadata: { desk: "a" } };
    const res = await client.request({
      method: "POST",
      path: "/echo",
      body,
      query: { limit: 2, market: ["BTCUSD", "ETHUSD"], skip: undefined, none: null },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual({
      method: "POST",
      query: [
        ["limit", "2"],
        ["market", "BTCUSD"],
        ["market", "ETHUSD"],
      ],
      body,
      content_type: "application/json",
      scope: ORDERS,
    });

    const problem = await client.request({ method: "GET", path: "/problem" });
    expect(problem).toMatchObject({ status: 422, body: { title: "Unprocessable", status: 422 } });
    expect(await client.request({ method: "GET", path: "/text" })).toMatchObject({
      status: 200,
      body: "plain words",
    });
    expect(await client.request({ method: "DELETE", path: "/empty" })).toMatchObject({
      status: 204,
      body: null,
    });
  });

  it("on a 401 to a read (no challenge), drops the token and retries once with a new one", async () => {
    const client = clientFor();
    await client.request({ method: "GET", path: "/echo" });
    const old = service.apiHits[0]!.token;
    service.revoked.add(old);
    const res = await client.request({ method: "GET", path: "/echo", query: { a: "1" } });
    expect(res.status).toBe(200);
    expect(service.apiHits.map((h) => h.token === old)).toEqual([true, true, false]);
    expect(service.tokenRequests).toHaveLength(2);
    // The new token is cached: no third token request.
    await client.request({ method: "GET", path: "/echo" });
    expect(service.tokenRequests).toHaveLength(2);
  });

  it.each(["POST", "DELETE"] as const)(
    "on a 401 to a %s, drops the token but sends nothing again: a 502 problem, never a 401",
    async (method) => {
      const client = clientFor();
      await client.request({ method: "GET", path: "/echo" });
      const old = service.apiHits[0]!.token;
      service.revoked.add(old);
      const error = await client.request({ method, path: "/echo", body: { a: "1" } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamCredentialsRefused);
      // Nothing was done: the create is the journal's and reconciliation's to decide, never resent here.
      expect(error).toMatchObject({ maybeDelivered: false, stage: "token" });
      expect(service.apiHits.map((h) => h.token === old)).toEqual([true, true]);
      expect(upstreamProblem(error as UpstreamCredentialsRefused)).toMatchObject({
        status: 502,
        detail: expect.stringMatching(/^The service refused the dashboard's credentials/),
      });
      // The refused token is gone from the cache: the next call asks for a new one.
      expect((await client.request({ method: "GET", path: "/echo" })).status).toBe(200);
      expect(service.apiHits.at(-1)!.token).not.toBe(old);
      expect(service.tokenRequests).toHaveLength(2);
    },
  );

  it("refreshes once for many concurrent calls refused with the same token", async () => {
    const client = clientFor();
    await client.request({ method: "GET", path: "/echo" });
    service.revoked.add(service.apiHits[0]!.token);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => client.request({ method: "GET", path: "/echo" })),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(service.tokenRequests).toHaveLength(2);
  });

  it("answers a read refused with a fresh token too as a 502 problem, without looping, and drops both tokens", async () => {
    const client = clientFor();
    const error = await client.request({ method: "GET", path: "/always-401" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamCredentialsRefused);
    expect(error).toMatchObject({ maybeDelivered: false });
    const p = upstreamProblem(error as UpstreamCredentialsRefused);
    expect(p).toMatchObject({ status: 502, title: "Service Refused Credentials" });
    expect(p.detail).toContain("The service refused the dashboard's credentials");
    expect(service.apiHits).toHaveLength(2);
    expect(service.tokenRequests).toHaveLength(2);
    await client.request({ method: "GET", path: "/echo" });
    expect(service.tokenRequests).toHaveLength(3);
  });

  it("gives up after its time limit with UpstreamTimeout", async () => {
    const started = Date.now();
    const error = await clientFor({}, 200)
      .request({ method: "POST", path: "/slow", body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamTimeout);
    expect(error).toMatchObject({ stage: "request", timeoutMs: 200, maybeDelivered: true });
    expect(upstreamProblem(error as UpstreamTimeout)).toMatchObject({ status: 504, title: "Service Timeout" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("reports a refused connection as UpstreamUnreachable, known not to be delivered", async () => {
    const port = await refusedPort();
    const tokens = tokensFor();
    const client = createUpstreamClient({ baseUrl: `http://127.0.0.1:${port}/v2`, tokens, scopes: [ORDERS] });
    const error = await client.request({ method: "POST", path: "/echo", body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnreachable);
    expect(error).toMatchObject({ stage: "request", code: "ECONNREFUSED", maybeDelivered: false });
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect(upstreamProblem(error as UpstreamUnreachable)).toMatchObject({ status: 502, title: "Service Unreachable" });
  });

  it("reports a dropped connection as UpstreamUnreachable that may have been delivered", async () => {
    const error = await clientFor()
      .request({ method: "POST", path: "/drop", body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnreachable);
    expect(error).toMatchObject({ stage: "request", maybeDelivered: true });
  });

  it("reports an unreachable token endpoint at the token stage", async () => {
    const port = await refusedPort();
    const tokens = createTokenCache({
      tokenUrl: `http://127.0.0.1:${port}/oauth2/token`,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
    });
    const client = createUpstreamClient({ baseUrl: `${service.base}/v2`, tokens, scopes: [ORDERS] });
    const error = await client.request({ method: "GET", path: "/echo" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnreachable);
    expect(error).toMatchObject({ stage: "token", code: "ECONNREFUSED", maybeDelivered: false });
    expect(service.apiHits).toHaveLength(0);
  });

  it("refuses a path that could leave the base URL", async () => {
    const client = clientFor();
    for (const path of [
      "/profiles/../admin",
      "/profiles/%2e%2e/x",
      "/profiles/a%2Fb/orders",
      "/x?y=1",
      "echo",
      "/a//b",
    ]) {
      await expect(client.request({ method: "GET", path })).rejects.toBeInstanceOf(TypeError);
    }
    expect(service.apiHits).toHaveLength(0);
  });

  it("never puts the secret or a token into an error", async () => {
    const errors: unknown[] = [];
    const capture = (p: Promise<unknown>) =>
      p.then(
        () => errors.push(new Error("expected a failure")),
        (e) => errors.push(e),
      );
    const client = clientFor({}, 200);
    await client.request({ method: "GET", path: "/echo" }); // a token now exists
    await capture(client.request({ method: "GET", path: "/slow" }));
    await capture(client.request({ method: "GET", path: "/drop" }));
    await capture(tokensFor({ clientSecret: "wrong" }).getToken([ORDERS]));
    await capture(tokensFor({ clientSecret: "wrong", clientAuth: "client_secret_basic" }).getToken([ORDERS]));
    await capture(
      createUpstreamClient({
        baseUrl: `http://127.0.0.1:${await refusedPort()}/v2`,
        tokens: tokensFor(),
      }).request({ method: "GET", path: "/echo" }),
    );
    service.tokenFails = true;
    await capture(tokensFor().getToken([TRANSFERS]));

    expect(errors).toHaveLength(6);
    expect(service.issued.size).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      expect(leaks(error, [SECRET, ...service.issued.keys()])).toBe(false);
    }
  });
});

describe("the scopes of the one token (SERVICE_SCOPES)", () => {
  const READ_ONLY = ["exchange:read_order", "transfer:read_transfer", "funding:read_profile"];
  const scoped = (scopes: readonly string[]) =>
    createUpstreamClient({ baseUrl: `${service.base}/v2`, tokens: tokensFor(), scopes });

  it("asks for exactly the configured scopes", async () => {
    await scoped(READ_ONLY).request({ method: "GET", path: "/echo" });
    expect(service.tokenRequests.map((r) => r.scope.split(" ").sort())).toEqual([[...READ_ONLY].sort()]);
  });

  it.each([
    ["POST", "/profiles/p-1/orders", "exchange:write_order"],
    ["DELETE", "/profiles/p-1/orders/o-1", "exchange:write_order"],
    ["POST", "/transfer/internal", "transfer:write_internal_transfer"],
  ] as const)("refuses %s %s unsent, as a 403 naming %s", async (method, path, scope) => {
    const error = await scoped(READ_ONLY)
      .request({ method, path, body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamScopeMissing);
    expect(error).toMatchObject({ scope, maybeDelivered: false });
    const p = upstreamProblem(error as UpstreamScopeMissing);
    expect(p).toMatchObject({ status: 403, meta: { missing_scope: scope } });
    expect(p.detail).toMatch(new RegExp(`^The service's credentials lack ${scope}`));
    expect(service.apiHits).toHaveLength(0);
    expect(service.tokenRequests).toHaveLength(0);
  });

  it("refuses a read whose scope is missing, and sends public market data with any scopes", async () => {
    const ordersOnly = scoped(["exchange:read_order"]);
    await expect(ordersOnly.request({ method: "GET", path: "/profiles" })).rejects.toMatchObject({
      scope: "funding:read_profile",
    });
    await expect(ordersOnly.request({ method: "GET", path: "/transfer/transfers/t-1" })).rejects.toMatchObject({
      scope: "transfer:read_transfer",
    });
    // Market data needs no scope: the fake answers 404 for it, which is returned as an answer.
    expect((await ordersOnly.request({ method: "GET", path: "/markets/BTCUSD/ticker" })).status).toBe(404);
  });

  it("reports invalid_scope as such, naming the refused scope, not as a failed sign-in", async () => {
    service.granted = READ_ONLY;
    const error = await scoped([...READ_ONLY, "exchange:write_order"])
      .request({ method: "GET", path: "/echo" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(error).toMatchObject({ error: "invalid_scope", status: 400 });
    const p = upstreamProblem(error as TokenRequestError);
    expect(p).toMatchObject({
      status: 502,
      title: "Service Refused Scopes",
      meta: { scopes: ["exchange:write_order"] },
    });
    expect(p.detail).toContain("exchange:write_order (invalid_scope)");
    expect(p.title).not.toBe("Service Sign-in Failed");
  });

  it("names every scope asked for when invalid_scope does not say which", async () => {
    service.granted = ["exchange:read_order"];
    service.namesRefusedScopes = false;
    const asked = ["exchange:read_order", "funding:read_profile"];
    const error = await scoped(asked)
      .request({ method: "GET", path: "/echo" })
      .catch((e: unknown) => e);
    expect(upstreamProblem(error as TokenRequestError)).toMatchObject({ meta: { scopes: asked } });
  });
});

/** True when any rendering of the error (message, stack, JSON, inspect with causes) holds a secret. */
function leaks(error: unknown, secrets: string[]): boolean {
  const e = error as Error;
  const renderings = [String(e), e.message, e.stack ?? "", JSON.stringify(e), inspect(e, { depth: 10 })];
  return secrets.some((secret) => renderings.some((text) => text.includes(secret)));
}
