import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, signOut, TEST_PASSWORD } from "../../support/app-server";
import {
  eventually,
  expectProblem,
  metricValue,
  newRef,
  rawCall,
  resetDashboard,
  SETTLEMENT,
  smallOrder,
  smallTransfer,
  TRADING,
  TREASURY,
  type Answer,
  type Dashboard,
} from "../../support/dashboard";
import { openStream } from "../../support/event-stream";

/**
 * What only the running server shows, over real HTTP against the lane's shared app: Next's
 * routing of a path as written, next-auth's own endpoints, the proxy's headers, Next's body cap.
 * The route handlers themselves are tried in process (test/routes).
 */

let d: Dashboard;
beforeAll(async () => {
  d = await resetDashboard();
});
afterAll(() => d?.dispose());

/** A request with its path exactly as written: fetch would resolve "..", this does not. */
function rawPath(method: string, path: string, cookie: string): Promise<Answer> {
  const { hostname, port } = new URL(d.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers: { cookie, origin: d.url } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: new Headers(res.headers as Record<string, string>), body });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a path as written never climbs out of its route", () => {
  it.each([
    ["a raw '..' segment", "GET", "/api/v2/profiles/../sandbox/v2/profiles", 404],
    ["an encoded '..' segment", "GET", "/api/v2/profiles/%2e%2e/balances", 404],
    ["a raw slash inside the id", "GET", "/api/v2/profiles/a/b/balances", 404],
    ["a raw slash inside the id of a create", "POST", "/api/v2/profiles/a/b/orders", 404],
    // Resolves to POST-only /api/v2/transfer/internal: refused for its method.
    [
      "a '..' climbing out of the order path",
      "DELETE",
      `/api/v2/profiles/${TRADING}/orders/../../../transfer/internal`,
      405,
    ],
  ])("%s never reaches the service (%s %s): %i problem", async (_, method, path, status) => {
    const mark = d.proxy.requests.length;
    const result = await rawPath(method, path, d.as.admin.cookie());
    expectProblem(result, status);
    const sent = d.proxy.requests.slice(mark).filter((r) => !r.path.endsWith("/oauth2/token"));
    expect(sent).toEqual([]);
  });
});

describe("next-auth", () => {
  it("its own endpoints are public; the session names the role and nothing else secret", async () => {
    const anon = await rawCall(d.url, "GET", "/api/auth/session");
    expect(anon.status).toBe(200);
    expect(anon.body ?? {}).toEqual({});
    for (const role of ["viewer", "trader", "ops", "approver", "admin"] as const) {
      const res = await d.as[role].call("GET", "/api/auth/session");
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ email: `${role}@example.com`, role });
      expect(JSON.stringify(res.body)).not.toMatch(/secret|access_token|Bearer/i);
    }
  });
});

describe("sign-out through next-auth", () => {
  it("closes the session's live stream, and the cookie opens no other", async () => {
    const viewer = await signIn({ url: d.url }, "viewer@example.com");
    const stream = await openStream(d.url, viewer.cookie());
    expect(stream.status, stream.text()).toBe(200);
    await eventually(async () => (stream.text().includes("retry:") ? true : undefined), 5_000, "retry line");
    await signOut({ url: d.url }, viewer.cookie());
    await stream.ended;
    expect(stream.endedByServer(), "the server ended it").toBe(true);
    expect((await openStream(d.url, viewer.cookie())).status).toBe(401);
  });
});

describe("the idle timeout", () => {
  const MINUTE = 60_000;

  it("is renewed by the pages a person loads, not by background polls", async () => {
    const person = await signIn({ url: d.url }, "viewer@example.com");
    const page = () => fetch(`${d.url}/orders`, { headers: { Cookie: person.cookie() }, redirect: "manual" });
    // An hour in all, a page every twenty minutes: past the thirty idle minutes, alive throughout.
    for (let minutes = 20; minutes <= 60; minutes += 20) {
      await d.control!.advance(20 * MINUTE);
      expect((await page()).status, `the page at ${minutes} minutes`).toBe(200);
    }
    // Then only the open tab's polls: it ends thirty minutes after the last page.
    await d.control!.advance(20 * MINUTE);
    expect((await person.call("GET", "/api/approvals")).status).toBe(200);
    await d.control!.advance(11 * MINUTE);
    expect((await person.call("GET", "/api/approvals")).status).toBe(401);
    expect((await page()).status).toBe(307);
  });
});

describe("read-only credentials (SERVICE_SCOPES): the pages", () => {
  // Its own reset: a read-only SERVICE_SCOPES. The routes' answers to it: test/routes/scopes.test.ts.
  const READ_ONLY = ["exchange:read_order", "transfer:read_transfer", "funding:read_profile"];
  let d: Dashboard;
  beforeAll(async () => {
    d = await resetDashboard({ env: { SERVICE_SCOPES: READ_ONLY.join(" ") } });
  });
  afterAll(() => d?.dispose());

  it("the ticket and the transfer form say why they are off; reading roles see their usual note", async () => {
    const orders = String((await d.as.trader.call("GET", "/orders")).body);
    expect(orders).toContain("Placing orders is off");
    expect(orders).toContain("lack exchange:write_order");
    const transfers = String((await d.as.ops.call("GET", "/transfers")).body);
    expect(transfers).toContain("Creating transfers is off");
    expect(transfers).toContain("lack transfer:write_internal_transfer");
    const viewer = String((await d.as.viewer.call("GET", "/orders")).body);
    expect(viewer).toContain("placing them needs the trader role");
  });
});

/**
 * The review's hostile requests (issue 12) that the running server answers before any route
 * handler (proxy.ts, Next's body cap), the headers every page carries, and next-auth's own
 * sign-in and sign-out with their throttle. What the handlers answer: test/routes/hardening.test.ts.
 */
describe("hostile requests the running server answers", () => {
  let d: Dashboard;
  beforeAll(async () => {
    // Its own reset: counts the audit trail's sign-in failures and the metrics, and locks this address last.
    d = await resetDashboard();
  });
  afterAll(() => d?.dispose());

  const BROKEN = ["%ZZ", "%E0%A4%A", "%", "a%2"];

  describe("a broken %-escape in a path is a 400 problem, never a 500", () => {
    it.each(BROKEN)("GET /api/v2/profiles/%s/balances", async (segment) => {
      const res = await d.as.viewer.call("GET", `/api/v2/profiles/${segment}/balances`);
      expect(expectProblem(res, 400).detail).toMatch(/percent-encoded/);
    });

    it.each(BROKEN)("POST /sandbox/v2/profiles/%s/orders", async (segment) => {
      const token = await d.sandbox.getToken("exchange:write_order");
      const res = await rawCall(d.url, "POST", `/sandbox/v2/profiles/${segment}/orders`, {
        body: smallOrder(newRef()),
        headers: { Authorization: `Bearer ${token}` },
      });
      expectProblem(res, 400);
    });

    it("and in the dashboard's create routes", async () => {
      expectProblem(await d.as.trader.call("POST", "/api/v2/profiles/%ZZ/orders", smallOrder(newRef())), 400);
    });
  });

  describe("the sandbox's token endpoint", () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded" };

    it("refuses a 5 MB form with 413 before reading it", async () => {
      const res = await rawCall(d.url, "POST", "/sandbox/oauth2/token", { body: "a".repeat(5_000_000), headers: form });
      expectProblem(res, 413);
    });
  });

  /**
   * A body of unknown length (chunked), as a client that never says how long it is sends it:
   * `size` bytes of "a", or the bytes given, 16 KiB at a time.
   */
  async function streamed(path: string, content: number | Uint8Array, headers: Record<string, string>) {
    const bytes = typeof content === "number" ? undefined : content;
    const size = bytes?.byteLength ?? (content as number);
    const filler = new Uint8Array(16 * 1024).fill(97);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close();
        const chunk = bytes ? bytes.subarray(sent, sent + filler.byteLength) : filler;
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${d.url}${path}`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
    return { status: res.status, headers: res.headers, body: await res.json().catch(() => undefined) };
  }

  describe("every body is read through a 64 KiB cap: 413 problem past it", () => {
    const big = "x".repeat(5_000_000);

    it("sign-in: a 5 MB form, declared or streamed", async () => {
      const form = { "Content-Type": "application/x-www-form-urlencoded", Origin: d.url };
      expectProblem(await rawCall(d.url, "POST", "/api/auth/callback/credentials", { body: big, headers: form }), 413);
      expectProblem(await streamed("/api/auth/callback/credentials", 5_000_000, form), 413);
      // Just past the cap, streamed: under Next's own buffer, so it is the proxy's measure that refuses.
      expectProblem(await streamed("/api/auth/callback/credentials", 80 * 1024, form), 413);
    });

    it("/api/*: a 5 MB order, declared or streamed", async () => {
      expectProblem(await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, { pad: big }), 413);
      const headers = { "Content-Type": "application/json", Cookie: d.as.trader.cookie(), Origin: d.url };
      expectProblem(await streamed(`/api/v2/profiles/${TRADING}/orders`, 5_000_000, headers), 413);
    });

    it("/sandbox/*: a 5 MB transfer", async () => {
      const token = await d.sandbox.getToken("transfer:write_internal_transfer");
      const res = await rawCall(d.url, "POST", "/sandbox/v2/transfer/internal", {
        body: { pad: big },
        headers: { Authorization: `Bearer ${token}` },
      });
      expectProblem(res, 413);
    });

    it("a batch's file may weigh 1 MiB: a 1,000-row file goes through whole, declared or streamed; past 1 MiB a 413", async () => {
      const rows = Array.from(
        { length: 1000 },
        (_, i) => `${TREASURY},${SETTLEMENT},USD,0.${String(i + 1).padStart(3, "0")}`,
      );
      const csv = Buffer.from(["from_profile,to_profile,asset,amount", ...rows].join("\n"));
      expect(csv.byteLength).toBeGreaterThan(64 * 1024);
      const headers = { "Content-Type": "text/csv", Cookie: d.as.ops.cookie(), Origin: d.url };
      const path = `/api/batches/preview?ref_id=${newRef("cap")}`;
      for (const res of [
        await rawCall(d.url, "POST", path, { body: csv, headers }),
        await streamed(path, csv, headers),
      ]) {
        expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
        expect(res.body.preview).toMatchObject({ errors: [], outcome: "send" });
        expect(res.body.preview.rows).toHaveLength(1000);
      }
      const over = new Uint8Array(1024 * 1024 + 1).fill(97);
      expectProblem(await rawCall(d.url, "POST", path, { body: over, headers }), 413);
      expectProblem(await streamed(path, over, headers), 413);
      // Every other route keeps its 64 KiB.
      expectProblem(await d.as.ops.call("POST", "/api/v2/transfer/internal", { pad: "x".repeat(100 * 1024) }), 413);
    });

    it("a body under the cap still goes through whole", async () => {
      const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", smallTransfer(newRef()));
      expect(res.status).toBe(200);
    });
  });

  describe("headers", () => {
    it("pages carry a nonce-based CSP with no inline or eval scripts, and their scripts the nonce", async () => {
      const res = await fetch(`${d.url}/signin`);
      const csp = res.headers.get("content-security-policy") ?? "";
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
      const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
      expect(nonce).toBeTruthy();
      expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval/);
      const html = await res.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      const again = await fetch(`${d.url}/signin`);
      expect(again.headers.get("content-security-policy")).not.toContain(nonce);
    });

    it("no HSTS while the public URL is plain http", async () => {
      expect((await fetch(`${d.url}/signin`)).headers.get("strict-transport-security")).toBeNull();
    });
  });

  describe("revocable sessions", () => {
    async function signOut(cookie: string) {
      const csrf = await fetch(`${d.url}/api/auth/csrf`, { headers: { Cookie: cookie } });
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const res = await fetch(`${d.url}/api/auth/signout`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: d.url },
        body: new URLSearchParams({ csrfToken, json: "true" }),
        redirect: "manual",
      });
      expect(res.status).toBeLessThan(400);
    }

    it("sign-out revokes the session: a copied cookie then gets 401", async () => {
      const viewer = await signIn({ url: d.url }, "viewer@example.com");
      const copied = viewer.cookie();
      expect((await viewer.call("GET", "/api/approvals")).status).toBe(200);
      await signOut(copied);
      const again = await fetch(`${d.url}/api/approvals`, { headers: { Cookie: copied } });
      expect(again.status).toBe(401);
    });
  });

  /** The audit trail's entries of `event` (newest first), as the admin reads them. */
  async function auditOf(event: string): Promise<AuditRow[]> {
    const res = await d.as.admin.call("GET", `/api/audit?event=${event}&limit=200`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items;
  }
  interface AuditRow {
    action: string;
    actor_email: string | null;
    ip: string | null;
    subject: string | null;
    detail: Record<string, unknown>;
  }

  /** One sign-in form post with the given csrf cookie and token; answers next-auth's JSON. */
  async function postSignIn(csrf: { cookie: string; token: string }, email: string, password: string) {
    const res = await fetch(`${d.url}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: csrf.cookie, Origin: d.url },
      body: new URLSearchParams({ csrfToken: csrf.token, email, password, json: "true" }),
      redirect: "manual",
    });
    return { signedIn: res.headers.getSetCookie().some((c) => c.includes("session-token=")), body: await res.json() };
  }

  async function csrfPair() {
    const res = await fetch(`${d.url}/api/auth/csrf`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { cookie, token: ((await res.json()) as { csrfToken: string }).csrfToken };
  }

  describe("the sign-in throttle (issue 16, finding 10)", () => {
    // Before the test that locks this address: these need it open.
    it("checks at most 5 of 40 parallel wrong passwords for one account against the hash", async () => {
      const email = "approver@example.com";
      const checksBefore = await metricValue(d.as.admin, "dashboard_sign_in_password_checks_total");
      const csrf = await csrfPair();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => postSignIn(csrf, email, `wrong-guess-${i}`)),
      );
      expect(answers.every((a) => !a.signedIn)).toBe(true);
      // Every guess checked against the hash writes a "wrong email or password" entry.
      const entries = (await auditOf("sign-in.failed")).filter((e) => e.subject === email);
      const checked = entries.filter((e) => e.detail.reason === "wrong email or password").length;
      // Exactly the account's five: the lock counts an attempt before its password is checked.
      expect(checked).toBe(5);
      const checks = (await metricValue(d.as.admin, "dashboard_sign_in_password_checks_total")) - checksBefore;
      expect(checks).toBe(checked);
      // The other 35 met the lock: one entry for the lock, not one per attempt.
      expect(entries.filter((e) => e.detail.reason === "locked")).toHaveLength(1);
      const locked = answers.filter((a) => decodeURIComponent(String(a.body.url)).includes("Too many failed attempts"));
      expect(locked.length).toBe(40 - checked);
    });

    it("attempts on a locked account write one entry per lock, whatever subject each names", async () => {
      const before = (await auditOf("sign-in.failed")).length;
      const csrf = await csrfPair();
      // The account above is locked: 30 more tries, then as many naming it in other spellings.
      for (const email of ["approver@example.com", " APPROVER@example.com ", "Approver@Example.com"]) {
        await Promise.all(Array.from({ length: 10 }, () => postSignIn(csrf, email, "another-wrong-guess")));
      }
      expect((await auditOf("sign-in.failed")).length).toBe(before);
    });

    it("records the caller's address on sign-in and sign-out", async () => {
      const viewer = await signIn({ url: d.url }, "viewer@example.com");
      expect(viewer.signedIn).toBe(true);
      const [signedIn] = (await auditOf("sign-in")).filter((e) => e.action === "sign-in");
      expect(signedIn).toMatchObject({ subject: "viewer@example.com", ip: "127.0.0.1" });
      await signOut({ url: d.url }, viewer.cookie());
      const [signedOut] = await auditOf("sign-out");
      expect(signedOut).toMatchObject({ subject: "viewer@example.com", ip: "127.0.0.1" });
    });
  });

  describe("sign-in", () => {
    it("a signed-in user sent to /signin?callbackUrl=/%5Cevil.example stays on the dashboard", async () => {
      const res = await fetch(`${d.url}/signin?callbackUrl=/%5Cevil.example`, {
        headers: { Cookie: d.as.viewer.cookie() },
        redirect: "manual",
      });
      expect(res.status).toBeGreaterThanOrEqual(300);
      const location = new URL(res.headers.get("location")!, d.url);
      expect(location.origin).toBe(d.url);
      expect(location.pathname).toBe("/");
    });

    it("next-auth's own redirect after sign-in keeps to the origin", async () => {
      const csrf = await fetch(`${d.url}/api/auth/csrf`);
      const cookie = csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const res = await fetch(`${d.url}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: d.url },
        body: new URLSearchParams({
          csrfToken,
          email: "viewer@example.com",
          password: TEST_PASSWORD,
          callbackUrl: "/\\evil.example",
          json: "true",
        }),
        redirect: "manual",
      });
      const target = new URL(((await res.json()) as { url: string }).url, d.url);
      expect(target.host).toBe(new URL(d.url).host);
    });

    // Last in the file: it locks this address out of signing in (the next file's reset starts a new runtime).
    it("20 failures from one address, across accounts, lock it; a forged X-Forwarded-For does not escape", async () => {
      for (let i = 0; i < 20; i++) {
        const failed = await signIn({ url: d.url }, `nobody-${i}@example.com`, "wrong-password");
        expect(failed.signedIn).toBe(false);
      }
      const csrf = await fetch(`${d.url}/api/auth/csrf`);
      const cookie = csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const res = await fetch(`${d.url}/api/auth/callback/credentials`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Cookie: cookie,
          Origin: d.url,
          "X-Forwarded-For": "198.51.100.99",
        },
        body: new URLSearchParams({ csrfToken, email: "trader@example.com", password: TEST_PASSWORD, json: "true" }),
        redirect: "manual",
      });
      expect(res.headers.getSetCookie().some((c) => c.includes("session-token="))).toBe(false);
      expect(decodeURIComponent(((await res.json()) as { url: string }).url)).toMatch(/Too many failed attempts/);
    });
  });
});
