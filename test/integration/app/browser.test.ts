import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_PATH } from "../../support/fault-proxy";
import {
  expectProblem,
  rawCall,
  SERVICE_TIMEOUT_MS,
  resetDashboard,
  TRADING,
  type Answer,
  type Dashboard,
} from "../../support/dashboard";
import { TEST_PASSWORD } from "../../support/app-server";
import { sharedApp } from "../../support/shared-app";

/**
 * What the browser gets: security headers on every kind of response, no secret or service
 * token in the build's static files or in anything a signed-in page loads, throttled
 * sign-in, and sessions that end. The app runs with a client secret of its own, so a leak
 * of the runtime secret would be found.
 */

const CLIENT_SECRET = `it-secret-${randomUUID()}`;
/** The build the apps serve (next.config.js's distDir). */
const DIST = process.env.NEXT_DIST_DIR || ".next";
let d: Dashboard;
let authSecret: string;
/** What the lane's app wrote before this file began: its log is read from there on. */
let logFrom: number;
const logSince = () => sharedApp().log().slice(logFrom);

beforeAll(async () => {
  logFrom = sharedApp().log().length;
  // A client secret of its own, so a leak of the runtime's would be found; faults at the proxy.
  d = await resetDashboard({ clientSecret: CLIENT_SECRET, env: { SANDBOX_CLIENT_SECRET: CLIENT_SECRET } });
  authSecret = readFileSync(path.join((await d.control!.state()).data_dir, "auth-secret"), "utf8").trim();
  // A token exists from here on, so there is one to look for.
  expect((await d.as.viewer.call("GET", "/api/v2/profiles")).status).toBe(200);
  expect(d.proxy.tokens.length).toBeGreaterThan(0);
});
afterAll(() => d?.dispose());

/** Every secret value and name that must stay on the server. */
const secrets = () => [
  CLIENT_SECRET,
  authSecret,
  "sandbox-secret",
  ...d.proxy.tokens.map((t) => t.value),
  "SERVICE_CLIENT_SECRET",
  "SANDBOX_CLIENT_SECRET",
  "NEXTAUTH_SECRET",
  "OIDC_CLIENT_SECRET",
  "DATABASE_URL",
  "client_secret",
];
const leaks = (text: string) => secrets().filter((s) => text.includes(s));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** The app's pages as the build lists them: no route groups, no dynamic or internal ones. */
function pagePaths(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(DIST, "server/app-paths-manifest.json"), "utf8")) as Record<
    string,
    string
  >;
  return Object.keys(manifest)
    .filter((k) => k.endsWith("/page") && !k.includes("[") && !/\/_/.test(k))
    .map((k) => k.replace(/\/page$/, "").replace(/\/\([^)]*\)/g, "") || "/");
}

describe("secrets stay on the server", () => {
  it("no file under the build's static folder holds a secret, a secret's name, or client_secret", () => {
    const files = filesUnder(path.join(DIST, "static"));
    expect(files.filter((f) => f.endsWith(".js")).length).toBeGreaterThan(5);
    const found = files.flatMap((f) => leaks(readFileSync(f, "latin1")).map((s) => `${f}: ${s}`));
    expect(found).toEqual([]);
  });

  it("no page a signed-in admin loads, nor its scripts, styles or RSC payload, carries a secret or a token", async () => {
    const pages = pagePaths();
    expect(pages).toEqual(expect.arrayContaining(["/", "/signin"]));
    const assets = new Set<string>();
    const bodies: [string, string][] = [];
    for (const page of pages) {
      for (const headers of [{}, { RSC: "1" }] as Record<string, string>[]) {
        const res = await d.as.admin.call("GET", page, undefined, headers);
        expect(res.status, page).toBeLessThan(400);
        const text = typeof res.body === "string" ? res.body : JSON.stringify(res.body ?? "");
        bodies.push([page, text]);
        for (const m of text.matchAll(/\/_next\/static\/[^"'\s)\\]+/g)) assets.add(m[0]);
      }
    }
    expect(assets.size).toBeGreaterThan(3);
    for (const asset of assets) {
      const res = await fetch(`${d.url}${asset}`);
      expect(res.status, asset).toBe(200);
      bodies.push([asset, await res.text()]);
    }
    const found = bodies.flatMap(([where, text]) => leaks(text).map((s) => `${where}: ${s}`));
    expect(found).toEqual([]);
  });

  it("no API answer or error carries one, nor any line of the server's log", async () => {
    // Provoke the paths where a secret could slip: a refused token, a failing token endpoint, a timeout.
    d.proxy.fail({ method: "GET", path: "/sandbox/v2/profiles" }, { kind: "invalid-token" });
    d.proxy.fail({ method: "POST", path: TOKEN_PATH }, { kind: "status", status: 401 });
    const failed = await d.as.admin.call("GET", "/api/v2/profiles");
    expect(expectProblem(failed, 502).title).toBe("Service Sign-in Failed");
    d.proxy.fail({ method: "GET", path: "/sandbox/v2/orders" }, { kind: "delay", ms: SERVICE_TIMEOUT_MS + 500 });
    expectProblem(await d.as.admin.call("GET", "/api/v2/orders"), 504);
    d.proxy.clearFaults();
    const answers = [
      failed,
      await d.as.admin.call("GET", "/api/auth/session"),
      await d.as.admin.call("GET", "/api/v2/profiles"),
      await d.as.admin.call("GET", `/api/v2/profiles/${TRADING}/balances`),
      await d.as.admin.call("GET", "/api/activity"),
      await rawCall(d.url, "GET", "/api/auth/providers"),
    ];
    expect(answers.slice(1).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const found = answers.flatMap((a) => leaks(JSON.stringify(a.body ?? "")));
    expect(found).toEqual([]);
    expect(leaks(logSince())).toEqual([]);
  });
});

describe("security headers on every response", () => {
  const expectSecurityHeaders = (res: { headers: Headers }, what: string) => {
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp, what).toMatch(/(^|;)\s*frame-ancestors 'none'\s*(;|$)/);
    expect(csp, what).toMatch(/(^|;)\s*default-src 'self'/);
    expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
    expect(res.headers.get("referrer-policy"), what).toMatch(
      /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
    );
  };

  it("pages, redirects, the sign-in page and the not-found page", async () => {
    const answers: [string, Answer][] = [
      ["a page", await d.as.viewer.call("GET", pagePaths().find((p) => p !== "/" && p !== "/signin") ?? "/")],
      ["a redirect", await rawCall(d.url, "GET", "/")],
      ["the sign-in page", await rawCall(d.url, "GET", "/signin")],
      ["the not-found page", await d.as.viewer.call("GET", "/no-such-page")],
    ];
    expect(answers.map(([, a]) => a.status)).toEqual([200, expect.any(Number), 200, 404]);
    for (const [what, res] of answers) expectSecurityHeaders(res, what);
  });

  it("API answers and every kind of API error", async () => {
    const answers: [string, Answer][] = [
      ["200", await d.as.viewer.call("GET", "/api/v2/markets")],
      ["400", await d.as.viewer.call("GET", "/api/v2/profiles/a%2Fb/balances")],
      ["401", await rawCall(d.url, "GET", "/api/v2/profiles")],
      ["403", await d.as.viewer.call("POST", "/api/v2/transfer/internal", {})],
      ["403 cross-origin", await rawCall(d.url, "POST", "/api/v2/transfer/internal", { body: {} })],
      ["404", await d.as.viewer.call("GET", "/api/v2/nope")],
      ["405", await d.as.viewer.call("PUT", "/api/v2/markets")],
      ["next-auth", await rawCall(d.url, "GET", "/api/auth/csrf")],
      ["the sandbox", await rawCall(d.url, "GET", "/sandbox/v2/markets")],
    ];
    expect(answers.map(([, a]) => a.status)).toEqual([200, 400, 401, 403, 403, 404, 405, 200, 200]);
    for (const [what, res] of answers) expectSecurityHeaders(res, what);
    d.proxy.fail({ method: "GET", path: "/sandbox/v2/markets" }, { kind: "drop-before" });
    const gateway = await d.as.viewer.call("GET", "/api/v2/markets");
    expectProblem(gateway, 502);
    expectSecurityHeaders(gateway, "502");
  });

  it("static files", async () => {
    const script = filesUnder(path.join(DIST, "static")).find((f) => f.endsWith(".js"))!;
    const res = await fetch(`${d.url}/_next/static/${path.relative(path.join(DIST, "static"), script)}`);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res, script);
  });
});

/** One credentials sign-in as a browser does it; the session cookie, if one was set. */
async function signInAttempt(email: string, password: string) {
  const csrf = await fetch(`${d.url}/api/auth/csrf`);
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${d.url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: d.url },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    redirect: "manual",
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  const { url } = (await res.json()) as { url: string };
  return { status: res.status, session, error: new URL(url).searchParams.get("error") };
}

describe("staff sign-in", () => {
  it("issues a session that expires within 8 hours, HttpOnly and SameSite", async () => {
    const before = Date.now();
    const { session } = await signInAttempt("trader@example.com", TEST_PASSWORD);
    expect(session).toBeDefined();
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=(Lax|Strict)/i);
    const maxAge = /;\s*Max-Age=(\d+)/i.exec(session!)?.[1];
    const expires = /;\s*Expires=([^;]+)/i.exec(session!)?.[1];
    expect(maxAge ?? expires, "the cookie must say when it ends").toBeDefined();
    const endsAt = maxAge ? before + Number(maxAge) * 1000 : Date.parse(expires!);
    expect(endsAt - before).toBeLessThanOrEqual(8 * 3600_000 + 5_000);
    expect(endsAt - before).toBeGreaterThan(0);
  });

  it("refuses a forged or garbled session cookie with 401", async () => {
    for (const token of ["garbage", `${d.as.admin.cookie().split("session-token=")[1]?.split(";")[0]}x`]) {
      const res = await rawCall(d.url, "GET", "/api/v2/profiles", {
        headers: { Cookie: `next-auth.session-token=${token}` },
      });
      expectProblem(res, 401);
    }
  });

  it("refuses a wrong password without saying which part was wrong", async () => {
    const wrong = await signInAttempt("ops@example.com", "not-the-password");
    const unknown = await signInAttempt("nobody@example.com", TEST_PASSWORD);
    for (const r of [wrong, unknown]) {
      expect(r.session).toBeUndefined();
      expect(r.error).toBe("CredentialsSignin");
    }
    // Fewer than five failures do not lock the account.
    expect((await signInAttempt("ops@example.com", TEST_PASSWORD)).session).toBeDefined();
  });

  it("after 5 wrong passwords refuses the right one too: 'Too many failed attempts'", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await signInAttempt("viewer@example.com", `wrong-${i}`)).error).toBe("CredentialsSignin");
    }
    const locked = await signInAttempt("viewer@example.com", TEST_PASSWORD);
    expect(locked.session).toBeUndefined();
    expect(locked.error).toMatch(/^Too many failed attempts/);
    // Per account: another one still signs in.
    expect((await signInAttempt("admin@example.com", TEST_PASSWORD)).session).toBeDefined();
  });
});
