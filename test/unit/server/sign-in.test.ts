import { describe, expect, it } from "vitest";
import { oidcEmailRefusal, sameOriginPath, signInRedirect } from "@/lib/server/auth/redirects";
import { hashPassword, PASSWORD_MAX_CHARS, verifyPassword } from "@/lib/server/auth/password";
import { MAX_FAILURES_PER_IP, SignInThrottle } from "@/lib/server/auth/throttle";
import { callerAddress, PEER_HEADER, trustedProxies } from "@/lib/server/peer-address";

describe("redirects after sign-in stay on the dashboard", () => {
  it.each(["/\\evil.example", "//evil.example", "/\t/evil.example", "https://evil.example", "evil", "", "/%0a/x\\y"])(
    "%j goes home",
    (value) => expect(sameOriginPath(value)).toBe("/"),
  );
  it.each(["/orders", "/transfers?status=SETTLED#x", "/%5Cevil.example"])("%j stays", (value) =>
    expect(sameOriginPath(value)).toBe(value),
  );

  it("next-auth's callback keeps same-origin URLs and sends the rest home", () => {
    const baseUrl = "https://desk.example.com";
    expect(signInRedirect({ url: "/\\evil.example", baseUrl })).toBe(`${baseUrl}/`);
    expect(signInRedirect({ url: "https://evil.example/x", baseUrl })).toBe(baseUrl);
    expect(signInRedirect({ url: `${baseUrl}/orders`, baseUrl })).toBe(`${baseUrl}/orders`);
    expect(signInRedirect({ url: "/balances", baseUrl })).toBe(`${baseUrl}/balances`);
  });
});

describe("OIDC identities need a verified email", () => {
  it("refuses none, an unverified one or one the provider does not vouch for; takes a verified one", () => {
    expect(oidcEmailRefusal({ sub: "1" })).toMatch(/no email/);
    expect(oidcEmailRefusal({ email: "a@b.c", email_verified: false })).toMatch(/not verified/);
    expect(oidcEmailRefusal({ email: "a@b.c", email_verified: true })).toBeNull();
    expect(oidcEmailRefusal({ email: "a@b.c", email_verified: "true" })).toBeNull();
    expect(oidcEmailRefusal({ email: "a@b.c" })).toMatch(/not verified/);
  });
});

describe("password checks", () => {
  it("verify with scrypt, off the main thread: the event loop keeps turning meanwhile", async () => {
    const hash = await hashPassword("correct-horse-battery-staple");
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const results = await Promise.all([
      verifyPassword("correct-horse-battery-staple", hash),
      verifyPassword("wrong", hash),
      verifyPassword("x".repeat(PASSWORD_MAX_CHARS + 1), hash),
    ]);
    clearInterval(timer);
    expect(results).toEqual([true, false, false]);
    expect(ticks).toBeGreaterThan(0);
  });
});

describe("sign-in throttling", () => {
  it("locks an address after its own limit, across accounts, and forgets idle keys", () => {
    let now = 0;
    const byIp = new SignInThrottle(() => now, MAX_FAILURES_PER_IP);
    for (let i = 0; i < MAX_FAILURES_PER_IP - 1; i++) byIp.fail("10.0.0.9");
    expect(byIp.lockedFor("10.0.0.9")).toBe(0);
    byIp.fail("10.0.0.9");
    expect(byIp.lockedFor("10.0.0.9")).toBeGreaterThan(0);
    now += 15 * 60_000 + 1;
    expect(byIp.lockedFor("10.0.0.9")).toBe(0);
    expect(byIp.size).toBe(0);
  });

  it("remembers a bounded number of keys", () => {
    const t = new SignInThrottle();
    for (let i = 0; i < 10_050; i++) t.fail(`k${i}`);
    expect(t.size).toBe(10_000);
  });
});

describe("the caller's address", () => {
  const headers = (peer: string, xff?: string) =>
    new Headers({ [PEER_HEADER]: peer, ...(xff ? { "x-forwarded-for": xff } : {}) });

  it("is the connection's own when no proxy is trusted: X-Forwarded-For is a claim", () => {
    expect(callerAddress(headers("203.0.113.7", "1.2.3.4"), trustedProxies(undefined))).toBe("203.0.113.7");
    expect(callerAddress(headers("::ffff:203.0.113.7"), trustedProxies(""))).toBe("203.0.113.7");
  });

  it("is the nearest untrusted X-Forwarded-For entry when a trusted proxy connects", () => {
    const trusted = trustedProxies("10.0.0.1, 10.0.0.2");
    expect(callerAddress(headers("10.0.0.1", "6.6.6.6, 198.51.100.4, 10.0.0.2"), trusted)).toBe("198.51.100.4");
    expect(callerAddress(headers("10.0.0.1"), trusted)).toBe("10.0.0.1");
  });

  it("is unknown without the server's stamp", () => {
    expect(callerAddress(new Headers({ "x-forwarded-for": "1.2.3.4" }), trustedProxies(undefined))).toBeNull();
  });
});
