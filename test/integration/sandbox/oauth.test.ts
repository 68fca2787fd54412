import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLIENT,
  sandboxClient,
  startSandboxServer,
  testConfig,
  type SandboxServer,
} from "../../support/sandbox-server";

let server: SandboxServer;
beforeAll(async () => {
  server = await startSandboxServer();
});
afterAll(() => server.close());

const ALL_SCOPES =
  "exchange:write_order exchange:read_order transfer:write_internal_transfer transfer:read_transfer funding:read_profile";

async function token(form: Record<string, string>, headers: Record<string, string> = {}, base = server.url) {
  const res = await fetch(`${base}/sandbox/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
const grant = { grant_type: "client_credentials" };
const inBody = { ...grant, client_id: CLIENT.id, client_secret: CLIENT.secret };

describe("token endpoint (RFC 6749)", () => {
  it("grants every scope of the client with credentials in the form body", async () => {
    const res = await token(inBody);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: ALL_SCOPES });
    expect(typeof res.body.access_token).toBe("string");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("accepts HTTP Basic client authentication", async () => {
    const res = await token(grant, { Authorization: basic(CLIENT.id, CLIENT.secret) });
    expect(res.status).toBe(200);
  });

  it("grants only the scopes asked for", async () => {
    const res = await token({ ...inBody, scope: "exchange:read_order funding:read_profile" });
    expect(res.body.scope).toBe("exchange:read_order funding:read_profile");
  });

  it.each([
    ["a wrong secret", { ...inBody, client_secret: "nope" }, {}, 401, "invalid_client"],
    ["an unknown client", { ...inBody, client_id: "who" }, {}, 401, "invalid_client"],
    ["no client at all", grant, {}, 401, "invalid_client"],
    ["no grant_type", { client_id: CLIENT.id, client_secret: CLIENT.secret }, {}, 400, "invalid_request"],
    ["another grant", { ...inBody, grant_type: "password" }, {}, 400, "unsupported_grant_type"],
    ["an unknown scope", { ...inBody, scope: "exchange:read_order admin:all" }, {}, 400, "invalid_scope"],
    ["two authentication methods", inBody, { Authorization: basic(CLIENT.id, CLIENT.secret) }, 400, "invalid_request"],
  ])("refuses %s", async (_, form, headers, status, error) => {
    const res = await token(form as Record<string, string>, headers as Record<string, string>);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(error);
    expect(typeof res.body.error_description).toBe("string");
  });

  it("challenges a failed Basic authentication with WWW-Authenticate", async () => {
    const res = await token(grant, { Authorization: basic(CLIENT.id, "wrong") });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("refuses a JSON body", async () => {
    const res = await fetch(`${server.url}/sandbox/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(inBody),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
  });

  it("answers 405 to GET", async () => {
    const res = await fetch(`${server.url}/sandbox/oauth2/token`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("token limits", () => {
  it("allows about one token request per second per client, then answers 429 without Retry-After and locks it out", async () => {
    const strict = await startSandboxServer(testConfig({ tokenRatePerSecond: 1, ratePenaltySeconds: 300 }));
    try {
      const client = sandboxClient(strict.url);
      const bearer = await client.getToken();
      const second = await token(inBody, {}, strict.url);
      expect(second.status).toBe(429);
      expect(second.headers.get("content-type")).toBe("application/problem+json");
      expect(second.headers.get("retry-after")).toBeNull();
      expect(second.body).toMatchObject({ status: 429, title: "Too Many Requests" });
      // The caller is throttled "for minutes": its API calls too, with its still valid token.
      const locked = await client.call("GET", "/profiles", undefined, bearer);
      expect(locked.status).toBe(429);
      expect(locked.headers.get("retry-after")).toBeNull();
      expect(locked.body.detail).toMatch(/refused for \d+ more seconds/);
    } finally {
      await strict.close();
    }
  });

  it("expires tokens after their lifetime", async () => {
    const short = await startSandboxServer(testConfig({ tokenTtlSeconds: 1 }));
    try {
      const client = sandboxClient(short.url);
      const bearer = await client.getToken();
      expect((await client.call("GET", "/profiles", undefined, bearer)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1100));
      const expired = await client.call("GET", "/profiles", undefined, bearer);
      expect(expired.status).toBe(401);
      // The reference names no challenge: the problem says why, no WWW-Authenticate does.
      expect(expired.headers.get("www-authenticate")).toBeNull();
      expect(expired.body).toMatchObject({ title: "Unauthorized", detail: "the access token expired" });
    } finally {
      await short.close();
    }
  });
});

describe("bearer tokens on the API (RFC 6750)", () => {
  it("answers 401 without a WWW-Authenticate challenge when no token is sent", async () => {
    const res = await fetch(`${server.url}/sandbox/v2/profiles`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ type: "about:blank", title: "Unauthorized", status: 401 });
  });

  it("answers 401 to a forged token, without a challenge", async () => {
    const res = await sandboxClient(server.url).call("GET", "/profiles", undefined, "forged.token");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(res.body).toMatchObject({ status: 401, detail: "the access token is not valid" });
  });

  it("answers 403 naming the scope when the token lacks the operation's scope, without a challenge", async () => {
    const client = sandboxClient(server.url);
    const readOnly = await client.getToken("exchange:read_order");
    const res = await client.call(
      "POST",
      "/transfer/internal",
      { from_profile_id: "a", to_profile_id: "b", asset: "USD", amount: "1" },
      readOnly,
    );
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(res.body).toMatchObject({ status: 403, meta: { required_scope: "transfer:write_internal_transfer" } });
  });

  it("keeps market data public", async () => {
    expect((await fetch(`${server.url}/sandbox/v2/markets`)).status).toBe(200);
  });

  it("answers 404 and 405 as problems", async () => {
    const missing = await fetch(`${server.url}/sandbox/v2/nothing`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
    const wrong = await fetch(`${server.url}/sandbox/v2/markets`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
  });
});

describe("API rate limits", () => {
  it("answers 429 past the per-second limit, without Retry-After, then refuses the caller for the penalty", async () => {
    const strict = await startSandboxServer(testConfig({ apiRatePerSecond: 5, ratePenaltySeconds: 300 }));
    try {
      const client = sandboxClient(strict.url);
      const answers = [];
      for (let i = 0; i < 7; i++) answers.push(await client.call("GET", "/profiles"));
      expect(answers.slice(0, 5).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      for (const a of refused) expect(a.headers.get("retry-after")).toBeNull();
      // Another class, the bucket long full: still refused, the lockout is the caller's.
      const book = await client.call("GET", "/markets/BTCUSD/order-book");
      expect(book.status).toBe(429);
      expect(book.headers.get("retry-after")).toBeNull();
    } finally {
      await strict.close();
    }
  });
});
