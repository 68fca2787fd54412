import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020";
import { batchesIdle } from "@/lib/server/batches/sender";
import { relayedOrdersQuerySchema, relayedTransfersQuerySchema } from "@/lib/server/http/route-schemas";
import { activityExportQuery, activityListQuery } from "@/lib/server/lists/activity-list";
import { auditExportQuery, auditListQuery } from "@/lib/server/lists/audit-list";
import { ordersExportQuery, ordersListQuery } from "@/lib/server/lists/orders-list";
import { transfersExportQuery, transfersListQuery } from "@/lib/server/lists/transfers-list";
import { OPERATIONS } from "@/lib/server/openapi/paths";
import {
  eventually,
  inProcessDashboard,
  newRef,
  quote,
  rawCall,
  sandboxTurn,
  smallOrder,
  SETTLEMENT,
  smallTransfer,
  TRADING,
  TREASURY,
  type Answer,
  type InProcessDashboard,
} from "../support/dashboard";
import { signIn } from "../support/app-server";
import { routeFiles } from "../support/in-process";

/**
 * GET /api/openapi.json (lib/server/openapi/): it answers with no session, an independent
 * validator (@readme/openapi-parser) accepts it, and its paths and methods are exactly those of
 * the route files under app/api a script may call (next-auth's own and the /api/v2 catch-all
 * aside). A route's methods are read off the handlers themselves: each method is called with no
 * caller, and every one a route does not offer answers 405. Its query parameters are those each
 * handler takes, and real answers (creates sent, replayed and held, the tables' pages, approvals,
 * batches, tokens, the policy, the previews, an approver's context, a repeat declined, a cancel,
 * the audit trail's verification, the rebalancing plan, sessions, one's email notifications, the
 * service's market data and profiles relayed, a problem) pass the schema it names for their
 * status (ajv).
 */

interface Parameter {
  name: string;
  in: string;
  style?: string;
  explode?: boolean;
}
interface Responses {
  [status: string]: { content?: Record<string, { schema: { $ref?: string } }> };
}
let d: InProcessDashboard;
let doc: {
  openapi: string;
  paths: Record<string, Record<string, { security: unknown[]; parameters?: Parameter[]; responses: Responses }>>;
  components: { schemas: Record<string, unknown> };
};

beforeAll(async () => {
  d = await inProcessDashboard({ env: { WEBHOOK_ALLOW_HOSTS: "127.0.0.1" } });
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
      ["/api/webhooks", "post"],
      ["/api/webhooks", "get"],
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

/** The query parameters the document gives an operation. */
const queryParameters = (path: string, method = "get") =>
  (doc.paths[path]![method]!.parameters ?? []).filter((p) => p.in === "query");

/** The GET routes whose handlers read a query, with the schema each parses it with. */
const LIST_QUERIES: [string, { shape: object }][] = [
  ["/api/orders", ordersListQuery],
  ["/api/orders/export.csv", ordersExportQuery],
  ["/api/transfers", transfersListQuery],
  ["/api/transfers/export.csv", transfersExportQuery],
  ["/api/activity", activityListQuery],
  ["/api/activity/export.csv", activityExportQuery],
  ["/api/audit", auditListQuery],
  ["/api/audit/export.csv", auditExportQuery],
  ["/api/v2/orders", relayedOrdersQuerySchema],
  ["/api/v2/transfer/transfers", relayedTransfersQuerySchema],
];

describe("the document's query parameters", () => {
  it("are, for each list route, the keys of the schema its handler parses", () => {
    for (const [path, schema] of LIST_QUERIES) {
      expect(
        queryParameters(path)
          .map((p) => p.name)
          .sort(),
        path,
      ).toEqual(Object.keys(schema.shape).sort());
    }
    expect(queryParameters("/api/orders").map((p) => p.name)).toEqual(
      expect.arrayContaining(["profile_id", "market", "status", "side", "type", "sort", "dir", "limit", "cursor"]),
    );
    // Repeated parameters, as the handlers read them: ?statuses=A&statuses=B.
    expect(queryParameters("/api/transfers").find((p) => p.name === "statuses")).toMatchObject({
      style: "form",
      explode: true,
    });
  });

  it("are exactly those each route takes: every one is read, any other refused", async () => {
    const reading = Object.entries(doc.paths).filter(
      ([path, ops]) => path !== "/api/events" && ops.get && queryParameters(path).length > 0,
    );
    expect(reading.map(([path]) => path)).toEqual(expect.arrayContaining(LIST_QUERIES.map(([path]) => path)));
    const unknown = (res: Answer) => JSON.stringify(res.body).includes("Unknown query parameter");
    for (const [path] of reading) {
      for (const { name } of queryParameters(path)) {
        // Any value: a refused one is a 400 on the value, never on the name.
        const res = await d.as.admin.call("GET", `${path}?${name}=1`);
        expect(unknown(res), `${path}?${name}: ${JSON.stringify(res.body)}`).toBe(false);
      }
      const res = await d.as.admin.call("GET", `${path}?undocumented=1`);
      expect(res.status, path).toBe(400);
      expect(unknown(res), path).toBe(true);
    }
  });
});

describe("the document's answers", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const DOC_ID = "https://dashboard.invalid/api/openapi.json";
  beforeAll(() => {
    ajv.addSchema({ $id: DOC_ID, components: doc.components });
  });

  /**
   * Holds a real answer to its operation's documented status and content: a named schema (a $ref,
   * not an untyped object), which the body must pass.
   */
  function expectDocumented(res: Answer, method: string, path: string) {
    const response = doc.paths[path]![method]!.responses[String(res.status)];
    expect(response, `${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`).toBeDefined();
    const type = res.headers.get("content-type")!.split(";")[0]!;
    const schema = response!.content?.[type]?.schema;
    expect(schema?.$ref, `${method} ${path} ${res.status} ${type}: a named schema`).toMatch(
      /^#\/components\/schemas\//,
    );
    const check = ajv.getSchema(`${DOC_ID}${schema!.$ref}`)!;
    expect(check(res.body) ? [] : check.errors, `${method} ${path} ${res.status}`).toEqual([]);
    return res.body;
  }

  it("an order's and a transfer's, sent, replayed and held, and the tables' pages", async () => {
    const orders = "/api/v2/profiles/{profile_id}/orders";
    const ordered = smallOrder(newRef("doc"));
    const order = expectDocumented(
      await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, ordered),
      "post",
      orders,
    );
    expectDocumented(await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, ordered), "post", orders);
    await sandboxTurn();

    const transfers = "/api/v2/transfer/internal";
    const sent = smallTransfer(newRef("doc"));
    expectDocumented(await d.as.ops.call("POST", transfers, sent), "post", transfers);
    const big = await d.as.ops.call("POST", transfers, smallTransfer(newRef("doc"), { amount: "20000" }));
    expect(big.status, JSON.stringify(big.body)).toBe(202);
    expectDocumented(big, "post", transfers);

    const one = `/api/v2/profiles/${TRADING}/orders/${order.id}`;
    expectDocumented(await d.as.trader.call("GET", one), "get", "/api/v2/profiles/{profile_id}/orders/{id}");
    expectDocumented(
      await d.as.trader.call("GET", `/api/v2/orders?ref_ids=${ordered.ref_id}`),
      "get",
      "/api/v2/orders",
    );
    const legs = expectDocumented(
      await d.as.ops.call("GET", `/api/v2/transfer/transfers?ref_ids=${sent.ref_id}`),
      "get",
      "/api/v2/transfer/transfers",
    );
    expect(legs.items.length).toBeGreaterThan(0);
    expectDocumented(
      await d.as.ops.call("GET", `/api/v2/transfer/transfers/${legs.items[0].id}`),
      "get",
      "/api/v2/transfer/transfers/{id}",
    );

    const page = expectDocumented(await d.as.trader.call("GET", "/api/orders?limit=5"), "get", "/api/orders");
    expect(page.items.length).toBeGreaterThan(0);
    const legsPage = expectDocumented(await d.as.ops.call("GET", "/api/transfers"), "get", "/api/transfers");
    expect(legsPage.held.length).toBeGreaterThan(0);
  });

  it("the approvals', asked, read and decided", async () => {
    const big = await d.as.ops.call(
      "POST",
      "/api/v2/transfer/internal",
      smallTransfer(newRef("doc"), { amount: "20001" }),
    );
    expect(big.status, JSON.stringify(big.body)).toBe(202);
    const { id } = big.body.approval;
    expectDocumented(await d.as.approver.call("GET", "/api/approvals?status=PENDING"), "get", "/api/approvals");
    expectDocumented(await d.as.viewer.call("GET", `/api/approvals/${id}`), "get", "/api/approvals/{id}");
    const approved = expectDocumented(
      await d.as.approver.call("POST", `/api/approvals/${id}/approve`),
      "post",
      "/api/approvals/{id}/approve",
    );
    expect(approved.approval.outcome).not.toBeNull();
    expectDocumented(await d.as.viewer.call("GET", "/api/approvals"), "get", "/api/approvals");
    // The journal holds one create sent under approval now: who approved it is part of its entry.
    const journal = expectDocumented(await d.as.viewer.call("GET", "/api/activity?limit=50"), "get", "/api/activity");
    expect(journal.items.some((e: { approval?: unknown }) => e.approval)).toBe(true);
    expectDocumented(await d.as.admin.call("GET", "/api/audit?limit=50"), "get", "/api/audit");
  });

  it("the batches', sent and held, and the tokens', the policy's and the targets'", async () => {
    const note = newRef("doc").slice(-36);
    const row = { ...smallTransfer(), amount: "1.07", metadata: { note } };
    const batch = expectDocumented(
      await d.as.ops.call("POST", "/api/batches", { ref_id: newRef("batch"), transfers: [row] }),
      "post",
      "/api/batches",
    ).batch;
    const done = await eventually(async () => {
      await batchesIdle(d.app.runtime);
      const res = await d.as.ops.call("GET", `/api/batches/${batch.id}`);
      return res.body.batch.status === "SENDING" ? undefined : res;
    });
    expect(expectDocumented(done, "get", "/api/batches/{id}").batch.rows[0].transfer_id).toBeDefined();
    const held = await d.as.ops.call("POST", "/api/batches", {
      ref_id: newRef("batch"),
      transfers: [{ ...row, amount: "10000" }],
    });
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    expectDocumented(held, "post", "/api/batches");
    expectDocumented(await d.as.viewer.call("GET", "/api/batches"), "get", "/api/batches");

    const created = await d.as.admin.call("POST", "/api/tokens", { name: "doc", scopes: ["read"], expires_in_days: 7 });
    expectDocumented(created, "post", "/api/tokens");
    // An admin's list is everyone's, with each owner's email.
    expectDocumented(await d.as.admin.call("GET", "/api/tokens"), "get", "/api/tokens");

    expectDocumented(await d.as.viewer.call("GET", "/api/policies"), "get", "/api/policies");
    expectDocumented(await d.as.ops.call("GET", "/api/rebalance/targets"), "get", "/api/rebalance/targets");

    // A webhook to a closed port on loopback (allowed here): its test event fails and waits to be retried.
    const hook = expectDocumented(
      await d.as.admin.call("POST", "/api/webhooks", { url: "http://127.0.0.1:1/x", events: ["policy.changed"] }),
      "post",
      "/api/webhooks",
    ).webhook;
    expectDocumented(await d.as.admin.call("GET", "/api/webhooks"), "get", "/api/webhooks");
    const test = expectDocumented(
      await d.as.admin.call("POST", `/api/webhooks/${hook.id}/test`),
      "post",
      "/api/webhooks/{id}/test",
    ).delivery;
    expectDocumented(
      await d.as.admin.call("POST", `/api/webhooks/${hook.id}/deliveries/${test.id}/retry`),
      "post",
      "/api/webhooks/{id}/deliveries/{delivery_id}/retry",
    );
    expectDocumented(
      await d.as.admin.call("GET", `/api/webhooks/${hook.id}/deliveries`),
      "get",
      "/api/webhooks/{id}/deliveries",
    );
    expectDocumented(await d.as.admin.call("DELETE", `/api/webhooks/${hook.id}`), "delete", "/api/webhooks/{id}");
  });

  it("the previews', sent, held and refused, and an approver's context", async () => {
    const orderPreview = async (request: object) =>
      expectDocumented(
        await d.as.trader.call("POST", "/api/orders/preview", { profile_id: TRADING, request }),
        "post",
        "/api/orders/preview",
      ).outcome;
    // Over the order rule's threshold (100,000 USD), then past the trader's largest order (1,000,000).
    expect(await orderPreview(smallOrder(newRef("doc")))).toBe("send");
    expect(await orderPreview(smallOrder(newRef("doc"), { base_amount: "2000" }))).toBe("hold");
    expect(await orderPreview(smallOrder(newRef("doc"), { base_amount: "20000" }))).toBe("refuse");

    const transferPreview = async (amount: string) =>
      expectDocumented(
        await d.as.ops.call("POST", "/api/transfers/preview", smallTransfer(newRef("doc"), { amount })),
        "post",
        "/api/transfers/preview",
      ).outcome;
    expect(await transferPreview("1.25")).toBe("send");
    expect(await transferPreview("20000")).toBe("hold");
    expect(await transferPreview("2000000")).toBe("refuse");

    const batchPreview = async (body: object) =>
      expectDocumented(await d.as.ops.call("POST", "/api/batches/preview", body), "post", "/api/batches/preview")
        .preview;
    const row = { ...smallTransfer(), metadata: { note: "doc" } };
    expect((await batchPreview({ ref_id: newRef("batch"), transfers: [row] })).outcome).toBe("send");
    const heldPreview = await batchPreview({ ref_id: newRef("batch"), transfers: [{ ...row, amount: "10000" }] });
    expect(heldPreview.hold.approvers.length).toBeGreaterThan(0);
    expect((await batchPreview({ ref_id: newRef("batch"), transfers: [{ ...row, amount: "-1" }] })).errors).not.toEqual(
      [],
    );

    // The context beside a held transfer (what it spends, the requester's sends) and a held batch (its funds).
    const big = await d.as.ops.call(
      "POST",
      "/api/v2/transfer/internal",
      smallTransfer(newRef("doc"), { amount: "20002" }),
    );
    expect(big.status, JSON.stringify(big.body)).toBe(202);
    const context = expectDocumented(
      await d.as.approver.call("GET", `/api/approvals/${big.body.approval.id}/context`),
      "get",
      "/api/approvals/{id}/context",
    );
    expect(context.spend).not.toBeNull();
    const heldBatch = await d.as.ops.call("POST", "/api/batches", {
      ref_id: newRef("batch"),
      transfers: [{ ...row, amount: "10001" }],
    });
    expect(heldBatch.status, JSON.stringify(heldBatch.body)).toBe(202);
    const batchContext = expectDocumented(
      await d.as.approver.call("GET", `/api/approvals/${heldBatch.body.approval.id}/context`),
      "get",
      "/api/approvals/{id}/context",
    );
    expect(batchContext.batch_funds.length).toBeGreaterThan(0);
  });

  it("a repeat declined, an order cancelled, the audit trail verified and the rebalancing plan", async () => {
    const first = smallOrder(newRef("doc"));
    const orders = `/api/v2/profiles/${TRADING}/orders`;
    const placed = await d.as.trader.call("POST", orders, first);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    await sandboxTurn();
    const again = { ...first, ref_id: newRef("again") };
    expect((await d.as.trader.call("POST", orders, again)).status).toBe(409);
    const declined = expectDocumented(
      await d.as.trader.call("POST", "/api/activity/declined", {
        kind: "order",
        profile_id: TRADING,
        request: again,
        duplicate_of: first.ref_id,
      }),
      "post",
      "/api/activity/declined",
    );
    expect(declined.status).toBe("declined");

    expectDocumented(
      await d.as.trader.call("DELETE", `${orders}/${placed.body.id}`),
      "delete",
      "/api/v2/profiles/{profile_id}/orders/{id}",
    );
    expect(expectDocumented(await d.as.admin.call("GET", "/api/audit/verify"), "get", "/api/audit/verify").ok).toBe(
      true,
    );

    // The treasury's excess over a dollar moved toward a settlement target it cannot meet: a transfer, and a shortfall.
    const targets = [
      { profile_id: TREASURY, asset: "USD", target: "1", band: "0" },
      { profile_id: SETTLEMENT, asset: "USD", target: "1000000000000", band: "0" },
    ];
    expect((await d.as.ops.call("PUT", "/api/rebalance/targets", { targets })).status).toBe(200);
    const plan = expectDocumented(await d.as.ops.call("GET", "/api/rebalance/plan"), "get", "/api/rebalance/plan");
    expect([plan.transfers.length, plan.short.length]).toEqual([1, 1]);
    expect((await d.as.ops.call("PUT", "/api/rebalance/targets", { targets: [] })).status).toBe(200);
  });

  it("the sessions' and a token revoked", async () => {
    const ids = async () =>
      (
        expectDocumented(await d.as.admin.call("GET", "/api/sessions"), "get", "/api/sessions").items as {
          id: string;
        }[]
      ).map((s) => s.id);
    const before = await ids();
    await signIn(d.target, "viewer@example.com");
    const fresh = (await ids()).find((id) => !before.includes(id));
    expectDocumented(await d.as.admin.call("DELETE", `/api/sessions/${fresh}`), "delete", "/api/sessions/{id}");

    const created = await d.as.viewer.call("POST", "/api/tokens", {
      name: "doc",
      scopes: ["read"],
      expires_in_days: 1,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const revoked = expectDocumented(
      await d.as.viewer.call("DELETE", `/api/tokens/${created.body.token.id}`),
      "delete",
      "/api/tokens/{id}",
    );
    expect(revoked.token.revoked_at).not.toBeNull();
  });

  it("one's own email notifications", async () => {
    const path = "/api/notifications";
    expect(expectDocumented(await d.as.viewer.call("GET", path), "get", path)).toEqual({ approval_emails: true });
    const off = await d.as.viewer.call("PUT", path, { approval_emails: false });
    expect(expectDocumented(off, "put", path)).toEqual({ approval_emails: false });
    const refused = await d.as.viewer.call("PUT", path, { approval_emails: "no" });
    expect(refused.status).toBe(400);
    expectDocumented(refused, "put", path);
    expect((await d.as.viewer.call("PUT", path, { approval_emails: true })).status).toBe(200);
  });

  it("the service's markets and profiles, relayed", async () => {
    const markets = expectDocumented(await d.as.viewer.call("GET", "/api/v2/markets"), "get", "/api/v2/markets");
    expect(markets.markets.length).toBeGreaterThan(0);
    // A book to read: a bid and an ask resting on BTCUSD.
    await quote(d, "BTCUSD", "64000.00", "66000.00");
    const market = (what: string) => d.as.viewer.call("GET", `/api/v2/markets/BTCUSD/${what}`);
    expect(expectDocumented(await market("ticker"), "get", "/api/v2/markets/{market}/ticker").best_bid).toEqual({
      price: "64000",
      amount: "1",
    });
    expect(
      expectDocumented(await market("order-book"), "get", "/api/v2/markets/{market}/order-book").asks,
    ).toContainEqual({
      price: "66000",
      amount: "1",
    });
    // No trade yet on the sandbox's BTCUSD: an empty page, as the service answers it.
    expectDocumented(await market("recent-executions"), "get", "/api/v2/markets/{market}/recent-executions");
    const profiles = expectDocumented(await d.as.viewer.call("GET", "/api/v2/profiles"), "get", "/api/v2/profiles");
    expect(profiles.items.length).toBeGreaterThan(0);
    const held = expectDocumented(
      await d.as.viewer.call("GET", `/api/v2/profiles/${TRADING}/balances`),
      "get",
      "/api/v2/profiles/{profile_id}/balances",
    );
    expect(held.items.length).toBeGreaterThan(0);
  });

  it("the parent orders', started, replayed, held, read, paused, resumed and cancelled, and an order's quality", async () => {
    await quote(d, "BTCUSD", "64000.00", "66000.00");
    const parents = "/api/parent-orders";
    const twap = (extra: Record<string, unknown> = {}) => ({
      ref_id: newRef("doc"),
      profile_id: TRADING,
      market: "BTCUSD",
      side: "BUY",
      base_amount: "0.01",
      strategy: "TWAP",
      duration_seconds: 60,
      slices: 2,
      limit_price: "65000",
      ...extra,
    });
    const asked = twap();
    const started = await d.as.trader.call("POST", parents, asked);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { id } = expectDocumented(started, "post", parents).parent_order;
    const replay = await d.as.trader.call("POST", parents, asked);
    expect(replay.status).toBe(200);
    expectDocumented(replay, "post", parents);
    // 2 BTC at 65,000: over the order rule's threshold (100,000 USD), held for one approval of the whole.
    const held = await d.as.trader.call("POST", parents, twap({ base_amount: "2" }));
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    expect(expectDocumented(held, "post", parents).approval.kind).toBe("parent_order");

    expectDocumented(await d.as.viewer.call("GET", parents), "get", parents);
    expectDocumented(await d.as.viewer.call("GET", `${parents}/${id}`), "get", "/api/parent-orders/{id}");
    for (const action of ["pause", "resume", "cancel"]) {
      const res = await d.as.trader.call("POST", `${parents}/${id}/${action}`);
      expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
      expectDocumented(res, "post", `/api/parent-orders/{id}/${action}`);
    }
    const again = await d.as.trader.call("POST", `${parents}/${id}/cancel`);
    expect(again.status).toBe(409);
    expectDocumented(again, "post", "/api/parent-orders/{id}/cancel");

    const quality = "/api/orders/{order_id}/quality";
    const parentQuality = expectDocumented(await d.as.viewer.call("GET", `/api/orders/${id}/quality`), "get", quality);
    expect(parentQuality.order_id).toBe(id);
    const placed = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef("doc")));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orderQuality = expectDocumented(
      await d.as.viewer.call("GET", `/api/orders/${placed.body.id}/quality`),
      "get",
      quality,
    );
    expect(orderQuality.arrival_mid).not.toBeNull();
    expectDocumented(
      await d.as.viewer.call("GET", "/api/orders/0190aaaa-0000-7000-8000-000000000000/quality"),
      "get",
      quality,
    );
  });

  it("a problem's", async () => {
    const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, { market: "nowhere" });
    expect(res.status).toBe(400);
    expectDocumented(res, "post", "/api/v2/profiles/{profile_id}/orders");
  });
});
