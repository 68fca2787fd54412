import { describe, expect, it } from "vitest";
import { newSecret, secretHash } from "@/lib/server/auth/api-tokens";
import { tokenRate } from "@/lib/server/auth/token-rate";
import { bearerOf, hasSessionCookie, misplacedSecret } from "@/lib/server/http/bearer";

describe("a token's secret", () => {
  it("is dsk_ and 32 random bytes in base64url, kept as its SHA-256", () => {
    const a = newSecret();
    expect(a).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(4), "base64url")).toHaveLength(32);
    expect(newSecret()).not.toBe(a);
    expect(secretHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(secretHash(a)).toBe(secretHash(a));
  });
});

describe("where a request carries credentials", () => {
  const secret = `dsk_${"x".repeat(43)}`;
  const headers = (h: Record<string, string>) => new Headers(h);

  it("a bearer token only from Authorization: Bearer (any case); another scheme is none", () => {
    expect(bearerOf(headers({ authorization: `Bearer ${secret}` }))).toBe(secret);
    expect(bearerOf(headers({ authorization: `bearer  ${secret} ` }))).toBe(secret);
    expect(bearerOf(headers({ authorization: "Basic dXNlcjpwYXNz" }))).toBeNull();
    expect(bearerOf(headers({}))).toBeNull();
  });

  it("the session cookie, over http or https, whole or chunked", () => {
    for (const name of ["next-auth.session-token", "__Secure-next-auth.session-token", "next-auth.session-token.0"]) {
      expect(hasSessionCookie(headers({ cookie: `theme=dark; ${name}=abc` }))).toBe(true);
    }
    expect(hasSessionCookie(headers({ cookie: "theme=dark; next-auth.csrf-token=abc" }))).toBe(false);
    expect(hasSessionCookie(headers({}))).toBe(false);
  });

  it.each([
    ["?access_token=", `http://h/api/orders?access_token=${secret}`, {}, "query string"],
    ["?token=", `http://h/api/orders?token=${secret}`, {}, "query string"],
    ["%-encoded in a query", `http://h/api/orders?q=${encodeURIComponent(`x ${secret}`)}`, {}, "query string"],
    ["?access_token= holding anything", "http://h/api/orders?access_token=abc", {}, "query string"],
    ["a cookie", "http://h/api/orders", { cookie: `api=${secret}` }, "cookie"],
    ["nowhere", "http://h/api/orders?ref_id=dsk_short", { cookie: "theme=dark" }, null],
  ])("a secret in %s: %s", (_, url, h, place) => {
    expect(misplacedSecret({ url, headers: headers(h) })).toBe(place);
  });
});

describe("a token's rate", () => {
  it("a bucket per token, refilled evenly over the minute, on the clock it is given", () => {
    let now = 1_000_000;
    const rate = tokenRate(6, () => now);
    for (let i = 0; i < 6; i++) expect(rate.take("a")).toBe(0);
    expect(rate.take("a")).toBe(10_000);
    expect(rate.take("b")).toBe(0);
    now += 4_000;
    expect(rate.take("a")).toBe(6_000);
    now += 6_000;
    expect(rate.take("a")).toBe(0);
    expect(rate.take("a")).toBe(10_000);
    now += 600_000;
    for (let i = 0; i < 6; i++) expect(rate.take("a")).toBe(0);
    expect(rate.take("a")).toBeGreaterThan(0);
  });
});
