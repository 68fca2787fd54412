import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validate } from "@readme/openapi-parser";
import { inProcessDashboard, rawCall, type InProcessDashboard } from "../support/dashboard";
import { routeFiles } from "../support/in-process";
import { OPERATIONS } from "@/lib/server/openapi/paths";

/**
 * GET /api/openapi.json (lib/server/openapi/): it answers with no session, an independent
 * validator (@readme/openapi-parser) accepts it, and its paths and methods are exactly those of
 * the route files under app/api a script may call (next-auth's own and the /api/v2 catch-all
 * aside). A route's methods are read off the handlers themselves: each method is called with no
 * caller, and every one a route does not offer answers 405.
 */

let d: InProcessDashboard;
let doc: { openapi: string; paths: Record<string, Record<string, { security: unknown[] }>> };

beforeAll(async () => {
  d = await inProcessDashboard();
  const res = await rawCall(d.target, "GET", "/api/openapi.json");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  doc = res.body;
});
afterAll(() => d?.dispose());

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The route files a script may call, as OpenAPI writes their paths. */
const scriptRoutes = () =>
  routeFiles()
    .map((file) => file.replace(/^\/app/, "").replace(/\/route\.ts$/, ""))
    .filter((path) => path.startsWith("/api/") && !path.startsWith("/api/auth/") && !path.includes("[..."))
    .map((path) => path.replace(/\[(\w+)\]/g, "{$1}"));

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3.1 document an independent validator accepts", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("describes exactly the route files' paths", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(scriptRoutes().sort());
  });

  it("describes exactly the methods each route offers (every other answers 405)", async () => {
    const offered: Record<string, string[]> = {};
    for (const path of scriptRoutes()) {
      // A sample value for each parameter: a route refuses no caller before it reads them.
      const concrete = path.replace(/\{\w+\}/g, (p) => (p === "{market}" ? "BTCUSD" : "sample-1"));
      for (const method of METHODS) {
        // GET /api/events would stream: its 401 without a caller is enough to show it is offered.
        const res = await rawCall(d.target, method, concrete, { headers: { Origin: d.url } });
        if (res.status !== 405) (offered[path] ??= []).push(method.toLowerCase());
      }
    }
    const described = Object.fromEntries(Object.entries(doc.paths).map(([p, ops]) => [p, Object.keys(ops).sort()]));
    expect(described).toEqual(Object.fromEntries(Object.entries(offered).map(([p, ms]) => [p, ms.sort()])));
  });

  it("opens to a token only what a scope opens, and never a decision", () => {
    const byToken = (path: string, method: string) =>
      JSON.stringify(doc.paths[path]![method]!.security).includes("apiToken");
    expect(byToken("/api/v2/profiles/{profile_id}/orders", "post")).toBe(true);
    expect(byToken("/api/v2/transfer/internal", "post")).toBe(true);
    expect(byToken("/api/orders", "get")).toBe(true);
    for (const [path, method] of [
      ["/api/approvals/{id}/approve", "post"],
      ["/api/approvals/{id}/reject", "post"],
      ["/api/approvals/{id}/withdraw", "post"],
      ["/api/policies", "put"],
      ["/api/rebalance/targets", "put"],
      ["/api/tokens", "post"],
      ["/api/sessions/{id}", "delete"],
      ["/api/events", "get"],
    ]) {
      expect(byToken(path!, method!), `${method} ${path}`).toBe(false);
    }
  });

  it("has one operation per path and method in its table", () => {
    const keys = OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
