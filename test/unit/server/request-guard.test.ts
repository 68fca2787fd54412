import { describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES, cappedText, jsonBody } from "@/lib/server/http/toolkit";
import {
  contentSecurityPolicy,
  declaredBodyProblem,
  pathProblem,
  strictTransportSecurity,
} from "@/lib/server/http/request-guard";
import { clientCredentials, OAuthError } from "@/lib/sandbox/oauth";
import { ProblemError } from "@/lib/spec";

const problemOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    if (error instanceof ProblemError) return error.problem;
    throw error;
  }
  throw new Error("expected a problem");
};

describe("paths", () => {
  it.each(["/api/v2/profiles/%ZZ/balances", "/sandbox/v2/x/%E0%A4%A", "/%", "/a%2", "/a/%E0%A4"])(
    "%s is a 400 problem",
    (path) => expect(pathProblem(path)).toMatchObject({ status: 400, meta: { field: "path" } }),
  );
  it.each(["/api/v2/profiles/p-1/balances", "/a%2Fb", "/%E0%A4%A4", "/"])("%s passes", (path) =>
    expect(pathProblem(path)).toBeNull(),
  );
});

describe("bodies", () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request("http://x/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

  it("a declared length past the cap is refused unread", () => {
    expect(declaredBodyProblem("POST", String(BODY_LIMIT_BYTES + 1))).toMatchObject({ status: 413 });
    expect(declaredBodyProblem("POST", String(BODY_LIMIT_BYTES))).toBeNull();
    expect(declaredBodyProblem("GET", "999999999")).toBeNull();
  });

  it("a streamed body is refused at the first chunk past the cap", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => {
        pulled++;
        c.enqueue(new Uint8Array(1024).fill(97));
      },
    });
    expect(await problemOf(() => cappedText(post(endless)))).toMatchObject({ status: 413 });
    expect(pulled).toBeLessThan(70);
    expect(await cappedText(post("é".repeat(100)))).toBe("é".repeat(100));
  });

  it("JSON bodies: 415 for any other content type, 413 past the cap, 400 for a non-object", async () => {
    expect(await problemOf(() => jsonBody(post("{}", { "Content-Type": "text/plain" })))).toMatchObject({
      status: 415,
    });
    expect(await problemOf(() => jsonBody(post("{}")))).toMatchObject({ status: 415 });
    const big = JSON.stringify({ x: "y".repeat(BODY_LIMIT_BYTES) });
    expect(await problemOf(() => jsonBody(post(big, { "Content-Type": "application/json" })))).toMatchObject({
      status: 413,
    });
    expect(await problemOf(() => jsonBody(post("[]", { "Content-Type": "application/json" })))).toMatchObject({
      status: 400,
    });
    expect(await jsonBody(post('{"a":1}', { "Content-Type": "application/json; charset=utf-8" }))).toEqual({ a: 1 });
  });
});

describe("headers", () => {
  it("the CSP allows scripts only by this response's nonce in production", () => {
    const csp = contentSecurityPolicy("abc", false);
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(/script-src[^;]*unsafe/.test(csp)).toBe(false);
    expect(contentSecurityPolicy("abc", true)).toContain("'unsafe-eval'");
  });

  it("HSTS only when the public URL is https", () => {
    expect(strictTransportSecurity("https://desk.example.com")).toMatch(/max-age=\d+/);
    expect(strictTransportSecurity("http://127.0.0.1:3000")).toBeNull();
    expect(strictTransportSecurity(undefined)).toBeNull();
  });
});

describe("HTTP Basic at the token endpoint", () => {
  it.each(["a%:b", "a:%E0%A4%A", "%:%"])("%s is the client's 401 invalid_client, not a URIError", (pair) => {
    const header = `Basic ${Buffer.from(pair).toString("base64")}`;
    expect(() => clientCredentials(header, new URLSearchParams())).toThrow(OAuthError);
    try {
      clientCredentials(header, new URLSearchParams());
    } catch (error) {
      expect(error).toMatchObject({ status: 401, code: "invalid_client" });
    }
  });
});

describe("production defaults", () => {
  it("/sandbox/* answers 404 while the sandbox is off (a real service configured, SANDBOX unset)", async () => {
    const { serveSandbox } = await import("@/lib/sandbox/http/serve");
    const res = await serveSandbox(new Request("http://x/sandbox/oauth2/token", { method: "POST" }), null);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });
});
