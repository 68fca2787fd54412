import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLifecycle } from "@/lib/server/ops/lifecycle";
import { log } from "@/lib/server/ops/log";
import type { Runtime } from "@/lib/server/runtime";
import { ProblemError, problem } from "@/lib/spec";
import { UpstreamTimeout } from "@/lib/server/upstream/errors";
import type { AuditEvent } from "@/lib/server/audit-trail";

const SECRET = "a-session-secret-of-at-least-32-characters";
const ORIGIN = "http://dash.test";

// The configuration is read when the server modules load: set it first.
vi.stubEnv("NEXTAUTH_SECRET", SECRET);
vi.stubEnv("NEXTAUTH_URL", ORIGIN);
const { routeWrapper } = await import("@/lib/server/http/route");
const { sessionUser } = await import("@/lib/server/auth/session");

/** Sessions as their rows say: "live" is the trader's, anything else was signed out or revoked. */
const sessions = {
  use: async (sid: string) => (sid === "live" ? { email: "trader@example.com", role: "trader" as const } : null),
};
/** What the audit trail was handed. */
const audited: AuditEvent[] = [];
const audit = { append: async (e: AuditEvent) => void audited.push(e) };
const fakeRuntime = {
  db: {},
  upstream: {},
  sandbox: null,
  sessions,
  authSecret: SECRET,
  audit,
  lifecycle: createLifecycle(),
} as unknown as Runtime;
const withRole = routeWrapper(async () => fakeRuntime);

const sessionOf = (token: Record<string, unknown>, maxAge = 3600, secret = SECRET) => encode({ token, secret, maxAge });
const trader = { email: "trader@example.com", name: "Taylor Trader", role: "trader", sid: "live" };

function request(method: string, headers: Record<string, string> = {}) {
  return new NextRequest(`${ORIGIN}/api/v2/thing`, { method, headers });
}
type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;
const call = (handler: Handler, req: NextRequest) => handler(req, { params: Promise.resolve({}) });

afterAll(() => vi.unstubAllEnvs());

describe("withRole", () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = `next-auth.session-token=${await sessionOf(trader)}`;
  });

  it("hands the handler the user and the runtime it was made with", async () => {
    const seen: unknown[] = [];
    const handler = withRole("orders:create", async (ctx) => {
      seen.push(ctx.user, ctx.runtime);
      return Response.json({ ok: true });
    });
    const res = await call(handler, request("POST", { cookie, origin: ORIGIN }));
    expect(res.status).toBe(200);
    expect(seen).toEqual([{ email: "trader@example.com", name: "Taylor Trader", role: "trader" }, fakeRuntime]);
  });

  it("refuses a change from another origin (403), no session (401), the wrong role (403)", async () => {
    const handler = withRole("transfers:create", async () => Response.json({ ran: true }));
    const crossSite = await call(handler, request("POST", { cookie, origin: "http://evil.test" }));
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ detail: expect.stringContaining("cross-origin") });
    expect((await call(handler, request("GET"))).status).toBe(401);
    const wrongRole = await call(handler, request("POST", { cookie, origin: ORIGIN }));
    expect(wrongRole.status).toBe(403);
    expect(await wrongRole.json()).toMatchObject({ meta: { role: "trader", action: "transfers:create" } });
    expect(wrongRole.headers.get("content-type")).toBe("application/problem+json");
  });

  it("records each refused change as access.denied (who, from where, what, why); refused reads are not", async () => {
    audited.length = 0;
    // A runtime of its own: refusals are coalesced per runtime, and the test above made some.
    const mine = { ...fakeRuntime } as Runtime;
    const own = routeWrapper(async () => mine);
    const handler = own("transfers:create", async () => Response.json({ ran: true }));
    await call(handler, request("POST", { cookie, origin: "http://evil.test" }));
    await call(handler, request("DELETE", { origin: ORIGIN }));
    await call(handler, request("POST", { cookie, origin: ORIGIN }));
    await call(handler, request("GET"));
    await vi.waitFor(() => expect(audited).toHaveLength(3));
    expect(audited).toEqual([
      expect.objectContaining({
        action: "access.denied",
        actor: null,
        subject: "POST /api/v2/thing",
        detail: { status: 403, reason: "cross-origin", origin: "http://evil.test" },
      }),
      expect.objectContaining({
        actor: null,
        subject: "DELETE /api/v2/thing",
        detail: { status: 401, reason: "no session" },
      }),
      expect.objectContaining({
        actor: { email: "trader@example.com", role: "trader" },
        detail: { status: 403, reason: "role", action: "transfers:create" },
      }),
    ]);
  });

  it("hands the handler the session's id; only the person's own requests renew it", async () => {
    const uses: { sid: string; activity?: boolean }[] = [];
    const watching = {
      ...fakeRuntime,
      sessions: {
        use: async (sid: string, o?: { activity?: boolean }) => (
          uses.push({ sid, activity: o?.activity }),
          sessions.use(sid)
        ),
      },
    } as unknown as Runtime;
    const wrap = routeWrapper(async () => watching);
    const ids: string[] = [];
    const handler = wrap("read", async (ctx) => (ids.push(ctx.sessionId!), Response.json({})));
    const stream = wrap("read", async () => Response.json({}), { renews: false });
    await call(handler, request("GET", { cookie }));
    await call(handler, request("GET", { cookie, "x-dashboard-activity": "1" }));
    await call(handler, request("GET", { cookie, "sec-fetch-mode": "navigate" }));
    await call(handler, request("POST", { cookie, origin: ORIGIN }));
    await call(stream, request("GET", { cookie, "x-dashboard-activity": "1" }));
    expect(ids).toEqual(["live", "live", "live", "live"]);
    expect(uses.map((u) => u.activity)).toEqual([false, true, true, true, false]);
  });

  it("answers what the handler throws as a problem: its own, an upstream failure, or a 500", async () => {
    const throwing = (error: unknown) =>
      call(
        withRole("read", async () => {
          throw error;
        }),
        request("GET", { cookie }),
      );
    const own = await throwing(new ProblemError(problem(422, "Unprocessable", "nope")));
    expect([own.status, (await own.json()).title]).toEqual([422, "Unprocessable"]);
    const timeout = await throwing(new UpstreamTimeout("service.test", 10, "request"));
    expect([timeout.status, (await timeout.json()).title]).toEqual([504, "Service Timeout"]);
    const spy = vi.spyOn(log, "error").mockImplementation(() => {});
    const error = new Error("a bug");
    const bug = await throwing(error);
    expect([bug.status, (await bug.json()).detail]).toEqual([500, "The dashboard failed to handle this request."]);
    // Logged with the error itself, so its stack (lib/server/ops/log.ts serializes it).
    expect(spy).toHaveBeenCalledWith({ err: error }, "dashboard: request failed");
    spy.mockRestore();
  });
});

describe("sessionUser", () => {
  const source = (cookie: string, headers: Record<string, string> = {}) => request("GET", { cookie, ...headers });

  it("reads the staff member from next-auth's session cookie", async () => {
    const user = await sessionUser(source(`next-auth.session-token=${await sessionOf(trader)}`), SECRET, sessions);
    expect(user).toEqual({ email: "trader@example.com", name: "Taylor Trader", role: "trader" });
  });

  it("refuses a cookie whose session row is gone (signed out, revoked, idle), or that names none", async () => {
    const revoked = await sessionOf({ ...trader, sid: "revoked" });
    expect(await sessionUser(source(`next-auth.session-token=${revoked}`), SECRET, sessions)).toBeNull();
    const { sid: _, ...noSid } = trader;
    const old = await sessionOf(noSid);
    expect(await sessionUser(source(`next-auth.session-token=${old}`), SECRET, sessions)).toBeNull();
  });

  it("refuses an expired session, a forged one, and one without a known role", async () => {
    expect(
      await sessionUser(source(`next-auth.session-token=${await sessionOf(trader, -60)}`), SECRET, sessions),
    ).toBeNull();
    const forged = await sessionOf(trader, 3600, "another-secret-of-at-least-32-characters");
    expect(await sessionUser(source(`next-auth.session-token=${forged}`), SECRET, sessions)).toBeNull();
    const unknownRole = await sessionOf({ ...trader, role: "superuser" });
    expect(await sessionUser(source(`next-auth.session-token=${unknownRole}`), SECRET, sessions)).toBeNull();
    expect(await sessionUser(source(""), SECRET, sessions)).toBeNull();
  });
});
