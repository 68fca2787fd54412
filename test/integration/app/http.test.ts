import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../../support/app-server";
import { expectProblem, rawCall, resetDashboard, TRADING, type Answer, type Dashboard } from "../../support/dashboard";

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
