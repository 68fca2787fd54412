import { describe, expect, it } from "vitest";
import { oidcEmailRefusal, sameOriginPath, signInRedirect } from "@/lib/server/auth/redirects";
import { hashPassword, PASSWORD_COST, PASSWORD_MAX_CHARS, verifyPassword } from "@/lib/server/auth/password";
import { MAX_FAILURES_PER_IP, SignInThrottle } from "@/lib/server/auth/throttle";
import { credentialsCheck, SignInLocked } from "@/lib/server/auth/credentials";
import type { AuditEvent } from "@/lib/server/audit-trail";
import { callerAddress, PEER_HEADER, trustedProxies } from "@/lib/server/http/peer-address";

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

  it("hash at OWASP's cost unless told, and check at the cost the hash was made at", async () => {
    expect(PASSWORD_COST).toEqual({ N: 2 ** 14, r: 8, p: 1 });
    const strong = await hashPassword("correct-horse-battery-staple");
    expect(strong.cost).toEqual(PASSWORD_COST);
    const cheap = await hashPassword("correct-horse-battery-staple", { N: 2 ** 10, r: 8, p: 1 });
    expect(await verifyPassword("correct-horse-battery-staple", cheap)).toBe(true);
    // The same password and salt at another cost is another key: a hash is checked at its own cost.
    expect(await verifyPassword("correct-horse-battery-staple", { ...cheap, cost: PASSWORD_COST })).toBe(false);
  });
});

describe("sign-in throttling", () => {
  it("locks an address after its own limit, across accounts, and forgets idle keys", () => {
    let now = 0;
    const byIp = new SignInThrottle(() => now, MAX_FAILURES_PER_IP);
    for (let i = 0; i < MAX_FAILURES_PER_IP - 1; i++) expect(byIp.attempt("10.0.0.9").ok).toBe(true);
    expect(byIp.lockedFor("10.0.0.9")).toBe(0);
    expect(byIp.attempt("10.0.0.9").ok).toBe(true);
    expect(byIp.lockedFor("10.0.0.9")).toBeGreaterThan(0);
    now += 15 * 60_000 + 1;
    expect(byIp.lockedFor("10.0.0.9")).toBe(0);
    expect(byIp.size).toBe(0);
  });

  it("counts an attempt when it is let through; a released one (it succeeded) no longer counts", () => {
    const t = new SignInThrottle(() => 0, 2);
    const first = t.attempt("a");
    const second = t.attempt("a");
    expect([first.ok, second.ok]).toEqual([true, true]);
    expect(t.attempt("a")).toMatchObject({ ok: false, newLock: true });
    expect(t.attempt("a")).toMatchObject({ ok: false, newLock: false });
    if (first.ok) first.release();
    expect(t.attempt("a").ok).toBe(true);
  });

  it("reports a lock once, though the clock moves on between its readings", () => {
    // A millisecond passes on every second reading, as on a busy machine.
    let readings = 0;
    const t = new SignInThrottle(() => Math.floor(readings++ / 2), 2);
    expect([t.attempt("a").ok, t.attempt("a").ok]).toEqual([true, true]);
    const refusals = Array.from({ length: 12 }, () => t.attempt("a"));
    expect(refusals.every((r) => !r.ok)).toBe(true);
    expect(refusals.filter((r) => !r.ok && r.newLock)).toHaveLength(1);
  });

  it("remembers a bounded number of keys", () => {
    const t = new SignInThrottle();
    for (let i = 0; i < 10_050; i++) t.attempt(`k${i}`);
    expect(t.size).toBe(10_000);
  });
});

describe("checking credentials (issue 16, finding 10)", () => {
  const staff = { email: "approver@example.com", name: "Alex Approver", role: "approver" as const };
  function harness() {
    const audited: AuditEvent[] = [];
    let hashed = 0;
    const check = credentialsCheck({
      // A real scrypt's wait: the guesses overlap as they would in the server.
      verify: async (email, password) => {
        hashed++;
        await new Promise((r) => setImmediate(r));
        return email === staff.email && password === "right" ? staff : null;
      },
      audit: async (e) => void audited.push(e),
      checked: () => {},
    });
    return { check, audited, hashed: () => hashed };
  }

  it("checks at most 5 of 40 parallel wrong passwords against the hash; the rest meet the lock", async () => {
    const h = harness();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => h.check({ email: staff.email, password: `guess-${i}`, ip: "203.0.113.7" })),
    );
    expect(h.hashed()).toBe(5);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(35);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: expect.any(SignInLocked) });
    // One entry per guess checked, one for the lock: not one per attempt.
    expect(h.audited.map((e) => e.detail?.reason).sort()).toEqual([
      "locked",
      ...Array(5).fill("wrong email or password"),
    ]);
    expect(h.audited.every((e) => e.ip === "203.0.113.7")).toBe(true);
  });

  it("a locked account writes one entry per lock, however its name is spelled", async () => {
    const h = harness();
    for (let i = 0; i < 5; i++) await h.check({ email: staff.email, password: "wrong", ip: null });
    for (const email of [staff.email, " APPROVER@example.com", "Approver@Example.com "]) {
      await Promise.allSettled(Array.from({ length: 10 }, () => h.check({ email, password: "wrong", ip: null })));
    }
    expect(h.audited.filter((e) => e.detail?.reason === "locked")).toEqual([
      expect.objectContaining({ subject: staff.email, detail: { reason: "locked", locked: "account" } }),
    ]);
  });

  it("a locked address writes one entry for its lock, whatever account each attempt names", async () => {
    const h = harness();
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++)
      await h.check({ email: `n${i}@x.test`, password: "w", ip: "198.51.100.1" });
    await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => h.check({ email: `m${i}@x.test`, password: "w", ip: "198.51.100.1" })),
    );
    expect(h.audited.filter((e) => e.detail?.reason === "locked")).toEqual([
      expect.objectContaining({ ip: "198.51.100.1", detail: { reason: "locked", locked: "address" } }),
    ]);
    expect(h.hashed()).toBe(MAX_FAILURES_PER_IP);
  });

  it("the right password signs in, and a success does not count against the address", async () => {
    const h = harness();
    for (let i = 0; i < MAX_FAILURES_PER_IP + 5; i++) {
      expect(await h.check({ email: staff.email, password: "right", ip: "192.0.2.1" })).toEqual(staff);
    }
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
