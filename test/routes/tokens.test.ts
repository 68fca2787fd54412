import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Role } from "@/lib/shared/roles";
import { insertApiToken } from "@/lib/server/db/api-tokens";
import { newSecret, secretHash } from "@/lib/server/auth/api-tokens";
import {
  expectProblem,
  inProcessDashboard,
  newRef,
  rawCall,
  signInAll,
  smallOrder,
  smallTransfer,
  SETTLEMENT,
  TRADING,
  type Answer,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * Personal API tokens (issue 28): made, listed and revoked by a person signed in; a request with
 * `Authorization: Bearer dsk_…` acts as the token's owner, with their role now, narrowed by the
 * token's scopes, through the same handlers as the browser (controls, four eyes, limits, journal,
 * audit), and every refusal of the issue. In process, on both databases.
 */

/** A token's rate in this file: enough for every test, few enough to run out of in one. */
const RATE = 20;

interface AuditItem {
  action: string;
  actor_email: string | null;
  actor_role: string | null;
  subject: string | null;
  detail: Record<string, any>;
}

describe.each<Database>(["sqlite", "postgres"])("personal API tokens on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await inProcessDashboard({ database, env: { TOKEN_RATE_PER_MINUTE: String(RATE) } });
  });
  afterAll(() => d?.dispose());

  /** A new token of `role`'s demo user: its view and its secret. */
  async function mint(
    role: Role,
    scopes: string[],
    extra: Record<string, unknown> = {},
  ): Promise<{ token: Record<string, any>; secret: string }> {
    const res = await d.as[role].call("POST", "/api/tokens", {
      name: `${role} script`,
      scopes,
      expires_in_days: 30,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }
  /** A call with the token and nothing else: no cookie, no Origin. */
  const byToken = (
    secret: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> =>
    rawCall(d.target, method, path, { body, headers: { Authorization: `Bearer ${secret}`, ...headers } });

  const audited = async (event: string): Promise<AuditItem[]> => {
    const res = await d.as.admin.call("GET", `/api/audit?event=${event}&limit=200`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items;
  };
  /** Requests that reached the service while `run` ran, token requests aside. */
  async function sentDuring(run: () => Promise<Answer>): Promise<{ res: Answer; sent: string[] }> {
    const mark = d.proxy.requests.length;
    const res = await run();
    const sent = d.proxy.requests
      .slice(mark)
      .filter((r) => !r.path.endsWith("/oauth2/token"))
      .map((r) => `${r.method} ${r.path}`);
    return { res, sent };
  }

  describe("made, listed and revoked in a session", () => {
    it("answers 201 with the token and its secret, shown once; stored only as a hash; audited as token.created", async () => {
      const res = await d.as.trader.call("POST", "/api/tokens", {
        name: "  hedging bot  ",
        scopes: ["read", "trade"],
        expires_in_days: 7,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const { token, secret } = res.body;
      expect(secret).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);
      const created = Date.parse(token.created_at);
      expect(Math.abs(created - d.app.clock.now())).toBeLessThan(5_000);
      expect(token).toEqual({
        id: expect.any(String),
        name: "hedging bot",
        scopes: ["read", "trade"],
        created_at: expect.any(String),
        expires_at: new Date(created + 7 * 86_400_000).toISOString(),
        last_used_at: null,
        revoked_at: null,
      });
      const row = await d.app.runtime.db
        .selectFrom("api_tokens")
        .selectAll()
        .where("id", "=", token.id)
        .executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(secretHash(secret));
      expect(JSON.stringify(row)).not.toContain(secret.slice(4));
      const list = await d.as.trader.call("GET", "/api/tokens");
      expect(list.body.items).toContainEqual(token);
      expect(JSON.stringify(list.body)).not.toContain(secret.slice(4));
      const [entry] = (await audited("token.created")).filter((e) => e.subject === token.id);
      expect(entry).toMatchObject({
        actor_email: "trader@example.com",
        actor_role: "trader",
        detail: { name: "hedging bot", scopes: ["read", "trade"], expires_at: token.expires_at },
      });
      expect(JSON.stringify(await audited("token"))).not.toContain(secret.slice(4));
    });

    it.each<[string, Record<string, unknown>, string, RegExp]>([
      ["no name", { name: undefined }, "name", /required/],
      ["an empty name", { name: "   " }, "name", /empty/],
      ["a name of 101 characters", { name: "x".repeat(101) }, "name", /at most 100/],
      ["no scopes", { scopes: [] }, "scopes", /at least one/],
      ["scopes not a list", { scopes: "read" }, "scopes", /list/],
      ["an unknown scope", { scopes: ["read", "admin"] }, "scopes.1", /one of read, trade, transfer, batch/],
      ["a scope twice", { scopes: ["read", "read"] }, "scopes", /twice/],
      ["0 days", { expires_in_days: 0 }, "expires_in_days", /at least 1/],
      ["91 days", { expires_in_days: 91 }, "expires_in_days", /at most 90/],
      ["a fraction of a day", { expires_in_days: 1.5 }, "expires_in_days", /whole number/],
      ["no expiry", { expires_in_days: undefined }, "expires_in_days", /required/],
      ["an unknown field", { ip_allowlist: ["10.0.0.1"] }, "ip_allowlist", /Unknown field/],
    ])("refuses %s: 400 naming %s and its rule", async (_, extra, field, rule) => {
      const body = { name: "bot", scopes: ["read"], expires_in_days: 30, ...extra };
      const res = await d.as.trader.call("POST", "/api/tokens", body);
      const p = expectProblem(res, 400);
      expect(p.meta.errors).toContainEqual({ field, message: expect.stringMatching(rule) });
    });

    it.each<[Role, string]>([
      ["ops", "trade"],
      ["trader", "transfer"],
      ["trader", "batch"],
      ["viewer", "trade"],
      ["approver", "transfer"],
    ])("refuses a scope the %s role could not use anyway (%s): 400 naming it", async (role, scope) => {
      const res = await d.as[role].call("POST", "/api/tokens", {
        name: "bot",
        scopes: ["read", scope],
        expires_in_days: 1,
      });
      expect(expectProblem(res, 400).meta.errors).toEqual([
        { field: "scopes.1", message: `The ${role} role cannot use the ${scope} scope` },
      ]);
    });

    it("lists one's own tokens; an admin sees everyone's, with their owners", async () => {
      const ops = await mint("ops", ["read", "transfer"]);
      const viewer = await mint("viewer", ["read"]);
      const own = await d.as.ops.call("GET", "/api/tokens");
      expect(own.status).toBe(200);
      expect(own.body.items.map((t: { id: string }) => t.id)).toContain(ops.token.id);
      expect(own.body.items.map((t: { id: string }) => t.id)).not.toContain(viewer.token.id);
      expect(own.body.items.every((t: object) => !("owner_email" in t))).toBe(true);
      const all = await d.as.admin.call("GET", "/api/tokens");
      expect(all.body.items).toContainEqual({ ...ops.token, owner_email: "ops@example.com" });
      expect(all.body.items).toContainEqual({ ...viewer.token, owner_email: "viewer@example.com" });
    });

    it("revokes one's own (200, audited as token.revoked); another's is a 404 but for an admin", async () => {
      const { token, secret } = await mint("trader", ["read"]);
      expectProblem(await d.as.ops.call("DELETE", `/api/tokens/${token.id}`), 404);
      expectProblem(await d.as.viewer.call("DELETE", "/api/tokens/no-such-token"), 404);
      expect((await byToken(secret, "GET", "/api/approvals")).status).toBe(200);
      const res = await d.as.trader.call("DELETE", `/api/tokens/${token.id}`);
      expect(res.status).toBe(200);
      expect(res.body.token).toMatchObject({ id: token.id, revoked_at: expect.any(String) });
      expect(Date.parse(res.body.token.revoked_at)).toBeLessThanOrEqual(d.app.clock.now());
      expect((await audited("token.revoked")).filter((e) => e.subject === token.id)).toEqual([
        expect.objectContaining({
          actor_email: "trader@example.com",
          detail: { name: token.name, owner_email: "trader@example.com" },
        }),
      ]);
      // Again: as it is, nothing more written.
      expect((await d.as.trader.call("DELETE", `/api/tokens/${token.id}`)).status).toBe(200);
      expect((await audited("token.revoked")).filter((e) => e.subject === token.id)).toHaveLength(1);
      const other = await mint("ops", ["read"]);
      const byAdmin = await d.as.admin.call("DELETE", `/api/tokens/${other.token.id}`);
      expect(byAdmin.body.token).toMatchObject({ owner_email: "ops@example.com", revoked_at: expect.any(String) });
    });
  });

  describe("a request with a token acts as its owner", () => {
    it("sends a batch file with the batch scope, as docs/batches.md shows; without it, a 403", async () => {
      const csv = `from_profile,to_profile,asset,amount,note\nTreasury,Settlement,USD,1.17,${Date.now()}`;
      const post = (secret: string) =>
        byToken(secret, "POST", `/api/batches?ref_id=${newRef("token-batch")}`, csv, { "Content-Type": "text/csv" });
      const batcher = await mint("ops", ["read", "batch"]);
      const sent = await post(batcher.secret);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      expect(sent.body.batch).toMatchObject({ requested_by: "ops@example.com", status: "SENDING" });
      const transfersOnly = await mint("ops", ["transfer"]);
      const refused = await post(transfersOnly.secret);
      expect(expectProblem(refused, 403).meta).toMatchObject({ scope: "batch" });
    });

    it("reads with no Origin and no cookie; notes its last use at most once a minute", async () => {
      const { token, secret } = await mint("viewer", ["read"]);
      const listed = async () =>
        (await d.as.viewer.call("GET", "/api/tokens")).body.items.find((t: { id: string }) => t.id === token.id);
      /** Uses the token; when its last use is written, it is the time of the request. */
      const use = async () => {
        const before = d.app.clock.now();
        const res = await byToken(secret, "GET", "/api/v2/profiles");
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return [before, d.app.clock.now()] as const;
      };
      const [b1, a1] = await use();
      const first = (await listed()).last_used_at;
      expect(Date.parse(first)).toBeGreaterThanOrEqual(b1);
      expect(Date.parse(first)).toBeLessThanOrEqual(a1);
      d.app.clock.advance(30_000);
      await use();
      expect((await listed()).last_used_at).toBe(first);
      d.app.clock.advance(30_000);
      const [b3] = await use();
      expect(Date.parse((await listed()).last_used_at)).toBeGreaterThanOrEqual(b3);
    });

    it("places an order with no Origin: journaled and audited as the owner, each entry naming the token", async () => {
      const { token, secret } = await mint("trader", ["read", "trade"], { name: "hedger" });
      const ref = newRef("token-order");
      const res = await byToken(secret, "POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [entry] = await d.journal(ref);
      expect(entry).toMatchObject({ status: "succeeded", user_email: "trader@example.com", user_role: "trader" });
      const entries = (await audited("create")).filter((e) => e.subject === ref);
      expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(["create.requested", "create.succeeded"]));
      for (const e of entries) {
        expect(e).toMatchObject({
          actor_email: "trader@example.com",
          detail: { token: { id: token.id, name: "hedger" } },
        });
      }
      // A session's entries name no token.
      const own = newRef("session-order");
      expect((await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(own))).status).toBe(200);
      for (const e of (await audited("create")).filter((x) => x.subject === own))
        expect(e.detail.token).toBeUndefined();
    });

    it("goes through four eyes: an order over the threshold is held (202) for an approver, who approves it", async () => {
      const { secret } = await mint("trader", ["trade"]);
      const ref = newRef("token-held");
      const res = await byToken(
        secret,
        "POST",
        `/api/v2/profiles/${TRADING}/orders`,
        smallOrder(ref, { price: "1000.00", base_amount: "100" }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.approval).toMatchObject({ status: "PENDING", requested_by: "trader@example.com" });
      // The token never decides: not its owner's request, nor anyone's.
      const { secret: admins } = await mint("admin", ["read", "trade", "transfer", "batch"]);
      for (const verb of ["approve", "reject", "withdraw"]) {
        const refused = await byToken(admins, "POST", `/api/approvals/${res.body.approval.id}/${verb}`, {});
        expect(expectProblem(refused, 403).detail).toMatch(/A token never does this/);
      }
      const approved = await d.as.approver.call("POST", `/api/approvals/${res.body.approval.id}/approve`, {});
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    });

    it("meets the limits: an order past the trader's limit is a 403, nothing sent", async () => {
      const { secret } = await mint("trader", ["trade"]);
      const ref = newRef("token-limit");
      const { res, sent } = await sentDuring(() =>
        byToken(
          secret,
          "POST",
          `/api/v2/profiles/${TRADING}/orders`,
          smallOrder(ref, { price: "1000.00", base_amount: "2000" }),
        ),
      );
      expect(expectProblem(res, 403).detail).toMatch(/may be worth at most 1,000,000/);
      expect(sent.filter((s) => s.startsWith("POST"))).toEqual([]);
    });

    it("makes a transfer with the transfer scope", async () => {
      const { secret } = await mint("ops", ["transfer"]);
      const res = await byToken(secret, "POST", "/api/v2/transfer/internal", smallTransfer(newRef("token-transfer")));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });

    it("the session cookie and a token together: 400, nothing done", async () => {
      const { secret } = await mint("trader", ["trade"]);
      const ref = newRef("both");
      const res = await byToken(secret, "POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref), {
        Cookie: d.as.trader.cookie(),
        Origin: d.url,
      });
      expect(expectProblem(res, 400).detail).toMatch(/not both/);
      expect(await d.journal(ref)).toEqual([]);
    });

    it("a cookie's change without Origin is still refused (403 cross-origin)", async () => {
      const res = await rawCall(d.target, "POST", `/api/v2/profiles/${TRADING}/orders`, {
        body: smallOrder(newRef("no-origin")),
        headers: { Cookie: d.as.trader.cookie() },
      });
      expect(expectProblem(res, 403).detail).toMatch(/cross-origin/);
    });
  });

  describe("narrowed by the token's scopes (403)", () => {
    it.each<[string, Role, string[], string, () => [string, string, unknown?]]>([
      ["read", "trader", ["trade"], "read", () => ["GET", "/api/orders"]],
      [
        "trade",
        "trader",
        ["read"],
        "trade",
        () => ["POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef())],
      ],
      ["trade (cancel)", "trader", ["read"], "trade", () => ["DELETE", `/api/v2/profiles/${TRADING}/orders/abc`]],
      [
        "transfer",
        "ops",
        ["read", "batch"],
        "transfer",
        () => ["POST", "/api/v2/transfer/internal", smallTransfer(newRef())],
      ],
      [
        "batch",
        "ops",
        ["read", "transfer"],
        "batch",
        () => [
          "POST",
          "/api/batches",
          {
            ref_id: newRef("b"),
            transfers: [{ from_profile_id: TRADING, to_profile_id: SETTLEMENT, asset: "USD", amount: "1" }],
          },
        ],
      ],
    ])("without %s", async (_, role, scopes, scope, make) => {
      const { secret } = await mint(role, scopes);
      const [method, path, body] = make();
      const { res, sent } = await sentDuring(() => byToken(secret, method, path, body));
      expect(expectProblem(res, 403).meta).toEqual({ action: expect.any(String), scope });
      expect(sent).toEqual([]);
    });

    it("the role still decides first: a viewer's read token cannot place an order", async () => {
      const { secret } = await mint("viewer", ["read"]);
      const res = await byToken(secret, "POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef()));
      expect(expectProblem(res, 403).meta).toEqual({ role: "viewer", action: "orders:create" });
    });

    it.each<[string, string, string, unknown?]>([
      ["changing the policy", "PUT", "/api/policies", {}],
      ["replacing the rebalancing targets", "PUT", "/api/rebalance/targets", { targets: [] }],
      ["listing sessions", "GET", "/api/sessions"],
      ["ending a session", "DELETE", "/api/sessions/abc"],
      ["verifying the audit trail", "GET", "/api/audit/verify"],
      ["making a token", "POST", "/api/tokens", { name: "x", scopes: ["read"], expires_in_days: 1 }],
      ["listing tokens", "GET", "/api/tokens"],
      ["revoking a token", "DELETE", "/api/tokens/abc"],
      ["opening the live stream", "GET", "/api/events"],
      ["an approver's context", "GET", "/api/approvals/abc/context"],
    ])("never %s, whatever its scopes (an admin's token)", async (_, method, path, body) => {
      const { secret } = await mint("admin", ["read", "trade", "transfer", "batch"]);
      const res = await byToken(secret, method, path, body);
      expect(expectProblem(res, 403).detail).toMatch(/A token never does this/);
    });

    it("reads the rebalancing targets with read (ops)", async () => {
      const { secret } = await mint("ops", ["read"]);
      expect((await byToken(secret, "GET", "/api/rebalance/targets")).status).toBe(200);
    });

    it("a refused change is audited as access.denied, naming the token", async () => {
      const { token, secret } = await mint("admin", ["read"]);
      await byToken(secret, "PUT", "/api/policies", {});
      // A refusal is written without holding up its answer.
      await vi.waitFor(async () => {
        const denied = (await audited("access.denied")).filter((e) => e.detail.token?.id === token.id);
        expect(denied).toEqual([
          expect.objectContaining({
            actor_email: "admin@example.com",
            detail: expect.objectContaining({ reason: "never by token" }),
          }),
        ]);
      });
    });
  });

  describe("refused (401), and nothing done", () => {
    it("an unknown token, or a malformed one", async () => {
      for (const secret of [newSecret(), "dsk_short", "not-a-token"]) {
        const ref = newRef("unknown");
        const res = await byToken(secret, "POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
        expect(expectProblem(res, 401).detail).toMatch(/not a token of this dashboard/);
        expect(JSON.stringify(res.body)).not.toContain(secret);
        expect(await d.journal(ref)).toEqual([]);
      }
    });

    it("a revoked token", async () => {
      const { token, secret } = await mint("trader", ["trade"]);
      await d.as.trader.call("DELETE", `/api/tokens/${token.id}`);
      const ref = newRef("revoked");
      const res = await byToken(secret, "POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      expect(expectProblem(res, 401).detail).toMatch(/revoked/);
      expect(await d.journal(ref)).toEqual([]);
    });

    it("a token whose owner never signed in has no role", async () => {
      const secret = newSecret();
      const at = new Date(d.app.clock.now()).toISOString();
      await insertApiToken(d.app.runtime.db, {
        id: `ghost-${newRef()}`,
        owner_email: "gone@example.com",
        owner_name: "Gone",
        name: "orphan",
        scopes_json: '["read"]',
        secret_hash: secretHash(secret),
        created_at: at,
        expires_at: new Date(d.app.clock.now() + 86_400_000).toISOString(),
        last_used_at: null,
        revoked_at: null,
        revoked_by: null,
      });
      expect(expectProblem(await byToken(secret, "GET", "/api/approvals"), 401).detail).toMatch(/no role/);
    });

    it.each([
      ["?access_token=", (s: string) => `/api/v2/transfer/internal?access_token=${s}`],
      ["?token=", (s: string) => `/api/v2/transfer/internal?token=${s}`],
      ["?access_token= with the session", (s: string) => `/api/v2/transfer/internal?access_token=${s}`],
    ])("a token in the query string (%s)", async (how, path) => {
      const { secret } = await mint("ops", ["transfer"]);
      const body = smallTransfer(newRef("query"));
      const headers: Record<string, string> = how.includes("session")
        ? { Cookie: d.as.ops.cookie(), Origin: d.url }
        : {};
      const { res, sent } = await sentDuring(() => rawCall(d.target, "POST", path(secret), { body, headers }));
      expect(expectProblem(res, 401).detail).toMatch(/only in the Authorization header/);
      expect(sent).toEqual([]);
      expect(await d.journal(body.ref_id!)).toEqual([]);
    });

    it("a token in a cookie", async () => {
      const { secret } = await mint("ops", ["transfer"]);
      const body = smallTransfer(newRef("cookie"));
      const res = await rawCall(d.target, "POST", "/api/v2/transfer/internal", {
        body,
        headers: { Cookie: `api_token=${secret}`, Origin: d.url },
      });
      expect(expectProblem(res, 401).detail).toMatch(/never in a cookie/);
      expect(await d.journal(body.ref_id!)).toEqual([]);
    });
  });

  describe("its own rate", () => {
    it(`${RATE} requests a minute, then 429 with Retry-After; allowed again once the clock moves`, async () => {
      const { secret } = await mint("viewer", ["read"]);
      const other = await mint("viewer", ["read"]);
      for (let i = 0; i < RATE; i++) expect((await byToken(secret, "GET", "/api/approvals")).status).toBe(200);
      const refused = await byToken(secret, "GET", "/api/approvals");
      expectProblem(refused, 429);
      // A request comes back every 60 / RATE s: less the time the loop above took.
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60 / RATE);
      // Each token its own.
      expect((await byToken(other.secret, "GET", "/api/approvals")).status).toBe(200);
      d.app.clock.advance((60 / RATE) * 1000);
      expect((await byToken(secret, "GET", "/api/approvals")).status).toBe(200);
      expectProblem(await byToken(secret, "GET", "/api/approvals"), 429);
    });
  });

  describe("as time and roles change (last: they move the clock and the people)", () => {
    it("the owner's role lowered while the token lives: the token acts with the role now", async () => {
      const { secret } = await mint("trader", ["read", "trade"]);
      // A newer sign-in of the trader as a viewer (what an identity provider's changed claim gives).
      d.app.clock.advance(1000);
      await d.app.runtime.sessions.start({ email: "trader@example.com", role: "viewer", provider: "oidc", ip: null });
      const ref = newRef("lowered");
      const res = await byToken(secret, "POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      expect(expectProblem(res, 403).meta).toEqual({ role: "viewer", action: "orders:create" });
      expect(await d.journal(ref)).toEqual([]);
      expect((await byToken(secret, "GET", "/api/approvals")).status).toBe(200);
      // Raised again: the token places orders again.
      d.app.clock.advance(1000);
      await d.app.runtime.sessions.start({ email: "trader@example.com", role: "trader", provider: "oidc", ip: null });
      const again = await byToken(secret, "POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef("raised")));
      expect(again.status, JSON.stringify(again.body)).toBe(200);
    });

    it("an expired token", async () => {
      const { secret } = await mint("viewer", ["read"], { expires_in_days: 1 });
      expect((await byToken(secret, "GET", "/api/approvals")).status).toBe(200);
      d.app.clock.advance(86_400_000);
      expect(expectProblem(await byToken(secret, "GET", "/api/approvals"), 401).detail).toMatch(/expired/);
      // The sessions ended with the day too: sign in again for whatever follows.
      Object.assign(d.as, await signInAll(d.target));
    });
  });
});
