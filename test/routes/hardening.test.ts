import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/app-server";
import {
  expectProblem,
  inProcessDashboard,
  newRef,
  rawCall,
  smallTransfer,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * The review's hostile requests (issue 12) that the route handlers answer, called in process:
 * broken escapes in a Basic header, other content types, prototype keys in metadata, amounts
 * padded with zeros; the sessions an admin sees and ends; refused writes in the audit trail.
 * What the running server answers before any handler (a broken %-escape in a path, bodies past
 * their cap, the headers every page carries) and next-auth's own sign-in and sign-out are tried
 * against the lane's app in test/integration/app/http.test.ts.
 */

let d: InProcessDashboard;
beforeAll(async () => {
  // A runtime of its own: counts the audit trail's refusals.
  d = await inProcessDashboard();
});
afterAll(() => d?.dispose());

describe("the sandbox's token endpoint", () => {
  const form = { "Content-Type": "application/x-www-form-urlencoded" };

  it.each(["a%:b", "dashboard:%E0%A4%A", "%:%"])("answers Basic %s with 401 invalid_client, not 500", async (pair) => {
    const res = await rawCall(d.target, "POST", "/sandbox/oauth2/token", {
      body: "grant_type=client_credentials",
      headers: { ...form, Authorization: `Basic ${Buffer.from(pair).toString("base64")}` },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: "invalid_client" });
  });
});

describe("JSON endpoints answer 415 to any other content type", () => {
  it.each([
    ["text/plain", JSON.stringify(smallTransfer())],
    ["application/x-www-form-urlencoded", "amount=1"],
    ["multipart/form-data; boundary=x", "--x--"],
    ["application/xml", "<transfer/>"],
    ["", JSON.stringify(smallTransfer())],
  ])("%j, at the back end and at the sandbox", async (type, body) => {
    const headers: Record<string, string> = type ? { "Content-Type": type } : {};
    const back = await d.app.fetch(`${d.url}/api/v2/transfer/internal`, {
      method: "POST",
      headers: { ...headers, Cookie: d.as.ops.cookie(), Origin: d.url },
      body,
    });
    expect(back.status).toBe(415);
    expect(back.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const token = await d.sandbox.getToken("transfer:write_internal_transfer");
    const sandbox = await d.app.fetch(`${d.url}/sandbox/v2/transfer/internal`, {
      method: "POST",
      headers: { ...headers, Authorization: `Bearer ${token}` },
      body,
    });
    expect(sandbox.status).toBe(415);
  });
});

describe("fields the service would take silently", () => {
  const sevenPairs = `{"__proto__":"x","k0":"v","k1":"v","k2":"v","k3":"v","k4":"v","k5":"v"}`;
  const transferWith = (field: string, raw: string) =>
    JSON.stringify(smallTransfer(newRef())).replace(/}$/, `,"${field}":${raw}}`);

  it.each(["metadata", "recipient_metadata"])("a __proto__ key in %s is refused by name", async (field) => {
    const sent = await d.app.fetch(`${d.url}/api/v2/transfer/internal`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: d.as.ops.cookie(), Origin: d.url },
      body: transferWith(field, sevenPairs),
    });
    const problem = expectProblem({ status: sent.status, headers: sent.headers, body: await sent.json() }, 400);
    expect(problem.meta.errors).toContainEqual({
      field: `${field}.__proto__`,
      message: expect.stringMatching(/__proto__/),
    });
  });

  it("an amount padded with 100 leading zeros is refused (leading zeros count)", async () => {
    const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", {
      ...smallTransfer(newRef()),
      amount: `${"0".repeat(100)}10`,
    });
    expect(expectProblem(res, 400).meta.errors).toContainEqual({
      field: "amount",
      message: expect.stringMatching(/at most 39 characters/),
    });
  });
});

describe("revocable sessions", () => {
  it("an admin sees active sessions (user, IP, started, last seen) and revokes one", async () => {
    const ops = await signIn(d.target, "ops@example.com");
    expect((await ops.call("GET", "/api/approvals")).status).toBe(200);
    const list = await d.as.admin.call("GET", "/api/sessions");
    expect(list.status).toBe(200);
    const mine = (list.body.items as { id: string; user_email: string; ip: string }[]).filter(
      (s) => s.user_email === "ops@example.com",
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]).toMatchObject({
      ip: "127.0.0.1",
      started_at: expect.any(String),
      last_seen_at: expect.any(String),
    });
    expect((await d.as.ops.call("GET", "/api/sessions")).status).toBe(403);
    for (const s of mine) expect((await d.as.admin.call("DELETE", `/api/sessions/${s.id}`)).status).toBe(200);
    expect((await ops.call("GET", "/api/approvals")).status).toBe(401);
    expectProblem(await d.as.admin.call("DELETE", `/api/sessions/${mine[0]!.id}`), 404);
  });
});

/** The audit trail's entries of `event` (newest first), as the admin reads them. */
async function auditOf(event: string): Promise<unknown[]> {
  const res = await d.as.admin.call("GET", `/api/audit?event=${event}&limit=200`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items;
}

describe("refused changes in the audit trail (issue 16, finding 11)", () => {
  // The entry counting the rest of the minute, written when the minute ends, is the rule of
  // lib/server/http/denials.ts; test/unit/server/denials.test.ts moves the clock to it, so no test waits the minute.
  it("an anonymous flood of refused writes adds one entry, not one per request", async () => {
    const flood = 300;
    const before = (await auditOf("access.denied")).length;
    for (let batch = 0; batch < flood / 50; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          rawCall(d.target, "POST", "/api/v2/transfer/internal", {
            body: smallTransfer(newRef()),
            headers: { Origin: d.url },
          }),
        ),
      );
      expect(answers.every((a) => a.status === 401)).toBe(true);
    }
    expect((await auditOf("access.denied")).length - before).toBeLessThanOrEqual(1);
  });
});
