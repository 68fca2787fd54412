import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Action, Role } from "@/lib/shared/roles";
import { stopParentScheduler } from "@/lib/server/parent-orders/scheduler";
import {
  expectProblem,
  inProcessDashboard,
  newRef,
  rawCall,
  SETTLEMENT,
  smallOrder,
  smallTransfer,
  TRADING,
  TREASURY,
  type Answer,
  type InProcessDashboard,
} from "../support/dashboard";
import { signIn } from "../support/app-server";
import { routeFiles } from "../support/in-process";

/**
 * Who may do what: every route handler under app/api × every demo role and no session; the
 * same-origin rule for changes; path parameters and bodies refused before anything is journaled
 * or sent; and nothing outside the allow-list passing through. The handlers are called in
 * process (test/support/in-process.ts); "nothing sent" is read off the faults in front of the
 * sandbox, which see every request to the service. What only HTTP shows (a raw ".." in a path,
 * next-auth's own endpoints) is tried against the running app in test/integration/app/http.test.ts.
 */

let d: InProcessDashboard;
let readableOrderId: string;
let readableTransferId: string;

beforeAll(async () => {
  // A webhook's receiver is a closed loopback port: each attempt is refused at once.
  d = await inProcessDashboard({ env: { WEBHOOK_ALLOW_HOSTS: "127.0.0.1" } });
  // Parent orders are asked for, paused, resumed and cancelled here, never worked: no child is sent.
  await stopParentScheduler(d.app.runtime);
  const order = await d.sandbox.call("POST", `/profiles/${TRADING}/orders`, smallOrder(newRef("seed")));
  const transfer = await d.sandbox.call("POST", "/transfer/internal", smallTransfer(newRef("seed")));
  expect([order.status, transfer.status]).toEqual([200, 200]);
  readableOrderId = order.body.id;
  readableTransferId = transfer.body.id;
});
afterAll(() => d?.dispose());

type Who = Role | "anonymous";
/** Written out, not imported from lib/shared/roles.ts; a new role there stops ACCESS compiling until it is added. */
const SIGNED_IN: Role[] = ["viewer", "trader", "ops", "approver", "admin"];
const WHO: Who[] = [...SIGNED_IN, "anonymous"];
interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/** A call as `who`: a signed-in role's client, or no cookie at all (with the right Origin). */
function callAs(who: Who, { method, path, body }: Call, headers?: Record<string, string>): Promise<Answer> {
  if (who === "anonymous") return rawCall(d.target, method, path, { body, headers: { Origin: d.url, ...headers } });
  return d.as[who].call(method, path, body, headers);
}

/** Requests that reached the service while `run` ran, token requests aside. */
async function sentDuring<T>(run: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
  const mark = d.proxy.requests.length;
  const result = await run();
  const sent = d.proxy.requests
    .slice(mark)
    .filter((r) => !r.path.endsWith("/oauth2/token"))
    .map((r) => `${r.method} ${r.path}`);
  return { result, sent };
}

/**
 * A fresh request held for approval, asked for by `who` when that role may ask (a large order
 * for a trader, a large transfer otherwise), so each allowed decision or withdrawal has its own.
 */
/** The held request whose context every caller asks for. */
let contextOf: Promise<string> | undefined;

async function heldApproval(who: Who): Promise<string> {
  const asker = who === "trader" || who === "ops" || who === "admin" ? who : "ops";
  const res =
    asker === "trader"
      ? await d.as.trader.call(
          "POST",
          `/api/v2/profiles/${TRADING}/orders`,
          smallOrder(newRef("held"), { price: "1000.00", base_amount: "100" }),
        )
      : await d.as[asker].call("POST", "/api/v2/transfer/internal", smallTransfer(newRef("held"), { amount: "10000" }));
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.approval.id;
}

/** A batch held for approval, asked for by `who` (ops unless an admin): each cancel has its own, and nothing is sent meanwhile. */
function heldBatchBody(ref = newRef("batch")) {
  const note = ref.slice(-36);
  return {
    ref_id: ref,
    transfers: [
      { from_profile_id: TRADING, to_profile_id: SETTLEMENT, asset: "USD", amount: "10000", metadata: { note } },
    ],
  };
}

async function heldBatch(who: Who): Promise<string> {
  const asker = who === "admin" ? "admin" : "ops";
  const res = await d.as[asker].call("POST", "/api/batches", heldBatchBody());
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.batch.id;
}

/** The batch every reader reads. */
let readableBatch: Promise<string> | undefined;

/** A TWAP parent held for approval (120,000 USD at its cap, past the order rule): nothing is sent meanwhile. */
const heldParentBody = () => ({
  ref_id: newRef("twap"),
  profile_id: TRADING,
  market: "BTCUSD",
  side: "BUY",
  base_amount: "2",
  strategy: "TWAP",
  duration_seconds: 60,
  slices: 6,
  limit_price: "60000",
});

/** A parent of `who`'s (a trader's unless an admin), held for approval or, `small`, working: each action has its own. */
async function parentOf(who: Who, small = false): Promise<string> {
  const asker = who === "admin" ? "admin" : "trader";
  const body = small ? { ...heldParentBody(), base_amount: "0.01" } : heldParentBody();
  const res = await d.as[asker].call("POST", "/api/parent-orders", body);
  expect(res.status, JSON.stringify(res.body)).toBe(small ? 201 : 202);
  return res.body.parent_order.id;
}

/** A working parent of `who`'s, paused. */
async function pausedParent(who: Who): Promise<string> {
  const id = await parentOf(who, true);
  const asker = who === "admin" ? "admin" : "trader";
  expect((await d.as[asker].call("POST", `/api/parent-orders/${id}/pause`)).status).toBe(200);
  return id;
}

/** The parent every reader reads. */
let readableParent: Promise<string> | undefined;

/** A fresh order of the sandbox's, so each allowed cancel has one of its own. */
async function freshOrderPath(): Promise<string> {
  const res = await d.sandbox.call("POST", `/profiles/${TRADING}/orders`, smallOrder(newRef("cancel")));
  return `/api/v2/profiles/${TRADING}/orders/${res.body.id}`;
}

/**
 * A market each role reads market data of. Answers are shared among screens for nearly a poll
 * period (lib/shared/market-polling.ts), so a market of its own shows each role's read reaching the
 * service. None is one a create here values against.
 */
const MARKET_OF: Record<Who, string> = {
  viewer: "LTCUSD",
  trader: "BCHUSD",
  ops: "LINKUSD",
  approver: "MATICUSD",
  admin: "GOLDUSD",
  anonymous: "ETHSGD",
};

/**
 * A market of each role's own for an order's quality: its recent executions, shared among screens
 * for nearly a poll period once read, are read by no other call here, so each role's read reaches
 * the service.
 */
const QUALITY_MARKET_OF: Record<Who, string> = {
  viewer: "ETHEUR",
  trader: "BTCEUR",
  ops: "AAVEUSD",
  approver: "UNIUSD",
  admin: "USDPUSD",
  anonymous: "BTCSGD",
};

/** An order of the service's on `who`'s own market, placed outside the dashboard: its quality's call. */
async function qualityCall(who: Who): Promise<Call> {
  const res = await d.sandbox.call(
    "POST",
    `/profiles/${TRADING}/orders`,
    smallOrder(newRef("quality"), { market: QUALITY_MARKET_OF[who] }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { method: "GET", path: `/api/orders/${res.body.id}/quality?profile_id=${TRADING}` };
}

interface RouteCase {
  route: string;
  /** The action a 403 names. */
  action: Action;
  /** The call `who` makes: some need a fresh thing of their own (an order to cancel, a request to decide). */
  call: (who: Who) => Call | Promise<Call>;
  local?: true;
  /** What an allowed call sends the service, when it is not the same path below /sandbox/v2 (`same`). */
  sends?: readonly string[] | ((same: string) => readonly string[]);
  /** A CSV download rather than JSON. */
  csv?: true;
  /** What an allowed call answers, when not 200 (a batch held for approval: 202). */
  ok?: number;
  /**
   * A second right the create path checks once `past`'s right is passed (the route's own): a role
   * `past` lets through and this refuses gets a 403 naming `action` and the field that needs it.
   */
  also?: { past: string; action: Action; field: string };
}

/** A ref_id of an order `who` sent just now (what a "don't send" answer names), when the role may send one. */
async function orderSentBy(who: Who): Promise<string> {
  const ref = newRef("earlier");
  if (who === "trader" || who === "admin") {
    const res = await d.as[who].call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return ref;
}

/** Rebalancing targets: one profile's, so a plan or a replacement reads one balance. */
const REBALANCE_TARGETS = [{ profile_id: TREASURY, asset: "USD", target: "1000000", band: "1000" }];

/** Every route handler under app/api, next-auth's aside, with the action it needs. */
const ROUTES = [
  {
    route: "GET /api/activity",
    action: "read",
    call: () => ({ method: "GET", path: "/api/activity?limit=1" }),
    local: true, // the journal: answered from the dashboard's own database
  },
  {
    route: "GET /api/activity/export.csv",
    action: "read",
    call: () => ({ method: "GET", path: "/api/activity/export.csv?kind=order" }),
    // The journal, with the profiles' nicknames from the service.
    sends: ["GET /sandbox/v2/profiles"],
    csv: true,
  },
  {
    route: "GET /api/orders",
    action: "read",
    call: () => ({ method: "GET", path: "/api/orders?side=BUY&limit=5" }),
    sends: ["GET /sandbox/v2/orders"],
  },
  {
    route: "GET /api/orders/export.csv",
    action: "read",
    call: async () => {
      // The market's recent executions (the orders' market VWAP) as a screen just read them: shared
      // for nearly a poll period, the export reads them with the screens, not once more.
      await d.as.admin.call("GET", "/api/v2/markets/ETHUSD/recent-executions");
      return { method: "GET", path: "/api/orders/export.csv?market=ETHUSD" };
    },
    sends: ["GET /sandbox/v2/profiles", "GET /sandbox/v2/orders"],
    csv: true,
  },
  {
    route: "GET /api/orders/{order_id}/quality",
    action: "read",
    call: qualityCall,
    // A parent order's id it is not; the journal does not know it: the order read under the profile
    // named, and its market's recent executions.
    sends: (same) => {
      const [, orderId] = /\/api\/orders\/([^/]+)\/quality/.exec(same)!;
      return [`GET /sandbox/v2/profiles/${TRADING}/orders/${orderId}`, expect.stringMatching(/recent-executions$/)];
    },
  },
  {
    route: "GET /api/transfers",
    action: "read",
    call: () => ({ method: "GET", path: "/api/transfers?asset=USD&limit=5" }),
    sends: ["GET /sandbox/v2/transfer/transfers"],
  },
  {
    route: "GET /api/transfers/export.csv",
    action: "read",
    // Deposits only: no internal transfer's other leg to look up.
    call: () => ({ method: "GET", path: "/api/transfers/export.csv?type=WIRE_DEPOSIT" }),
    sends: ["GET /sandbox/v2/profiles", "GET /sandbox/v2/transfer/transfers"],
    csv: true,
  },
  {
    route: "POST /api/activity/declined",
    action: "orders:create", // the role to send the kind of create declined
    call: async (who) => {
      // Only a repeat of the person's own create may be declined: the same order under a new ref_id.
      const earlier = await orderSentBy(who);
      return {
        method: "POST",
        path: "/api/activity/declined",
        body: {
          kind: "order",
          profile_id: TRADING,
          request: { ...smallOrder(earlier), ref_id: newRef("declined") },
          duplicate_of: earlier,
        },
      };
    },
    local: true, // journaled, never sent
  },
  {
    route: "POST /api/orders/preview",
    action: "orders:create",
    call: () => ({
      method: "POST",
      path: "/api/orders/preview",
      body: { profile_id: TRADING, request: smallOrder(newRef("preview")) },
    }),
    local: true, // a dry run: it reads prices and funds (PRICE_READ), sends nothing
  },
  { route: "GET /api/batches", action: "read", call: () => ({ method: "GET", path: "/api/batches" }), local: true },
  {
    route: "POST /api/batches",
    action: "batches:create",
    call: () => ({ method: "POST", path: "/api/batches", body: heldBatchBody() }),
    ok: 202,
    local: true, // held for approval: it reads prices, funds and the desk's profiles, sends nothing
  },
  {
    route: "POST /api/batches/preview",
    action: "batches:create",
    call: () => ({ method: "POST", path: "/api/batches/preview", body: heldBatchBody() }),
    local: true,
  },
  {
    route: "GET /api/batches/{id}",
    action: "read",
    call: async () => ({ method: "GET", path: `/api/batches/${await (readableBatch ??= heldBatch("ops"))}` }),
    local: true,
  },
  {
    route: "GET /api/batches/{id}/results.csv",
    action: "read",
    call: async () => ({
      method: "GET",
      path: `/api/batches/${await (readableBatch ??= heldBatch("ops"))}/results.csv`,
    }),
    local: true,
    csv: true,
  },
  {
    route: "POST /api/batches/{id}/cancel",
    action: "batches:create",
    call: async (who) => ({ method: "POST", path: `/api/batches/${await heldBatch(who)}/cancel` }),
    local: true,
  },
  {
    route: "GET /api/parent-orders",
    action: "read",
    call: () => ({ method: "GET", path: "/api/parent-orders" }),
    local: true,
  },
  {
    route: "POST /api/parent-orders",
    action: "orders:create",
    call: () => ({ method: "POST", path: "/api/parent-orders", body: heldParentBody() }),
    ok: 202,
    local: true, // held for approval: it reads prices and funds, sends nothing
  },
  {
    route: "GET /api/parent-orders/{id}",
    action: "read",
    call: async () => ({ method: "GET", path: `/api/parent-orders/${await (readableParent ??= parentOf("trader"))}` }),
    local: true,
  },
  {
    route: "POST /api/parent-orders/{id}/pause",
    action: "orders:create",
    call: async (who) => ({ method: "POST", path: `/api/parent-orders/${await parentOf(who, true)}/pause` }),
    local: true,
  },
  {
    route: "POST /api/parent-orders/{id}/resume",
    action: "orders:create",
    call: async (who) => ({ method: "POST", path: `/api/parent-orders/${await pausedParent(who)}/resume` }),
    local: true,
  },
  {
    route: "POST /api/parent-orders/{id}/cancel",
    action: "orders:create",
    call: async (who) => ({ method: "POST", path: `/api/parent-orders/${await parentOf(who)}/cancel` }),
    local: true,
  },
  {
    route: "POST /api/transfers/preview",
    action: "transfers:create",
    call: () => ({ method: "POST", path: "/api/transfers/preview", body: smallTransfer(newRef("preview")) }),
    local: true,
  },
  { route: "GET /api/v2/markets", action: "read", call: () => ({ method: "GET", path: "/api/v2/markets" }) },
  {
    route: "GET /api/v2/markets/{market}/order-book",
    action: "read",
    call: (who) => ({ method: "GET", path: `/api/v2/markets/${MARKET_OF[who]}/order-book` }),
  },
  {
    route: "GET /api/v2/markets/{market}/ticker",
    action: "read",
    call: (who) => ({ method: "GET", path: `/api/v2/markets/${MARKET_OF[who]}/ticker` }),
  },
  {
    route: "GET /api/v2/markets/{market}/recent-executions",
    action: "read",
    call: (who) => ({ method: "GET", path: `/api/v2/markets/${MARKET_OF[who]}/recent-executions` }),
  },
  { route: "GET /api/v2/orders", action: "read", call: () => ({ method: "GET", path: "/api/v2/orders?limit=5" }) },
  { route: "GET /api/v2/profiles", action: "read", call: () => ({ method: "GET", path: "/api/v2/profiles" }) },
  {
    route: "GET /api/v2/profiles/{profile_id}/balances",
    action: "read",
    call: () => ({ method: "GET", path: `/api/v2/profiles/${TRADING}/balances` }),
  },
  {
    route: "POST /api/v2/profiles/{profile_id}/orders",
    action: "orders:create",
    call: () => ({ method: "POST", path: `/api/v2/profiles/${TRADING}/orders`, body: smallOrder(newRef("role")) }),
  },
  {
    // An order settling into another profile moves money between profiles: the right to transfer too.
    route: "POST /api/v2/profiles/{profile_id}/orders settling into another profile",
    action: "orders:create",
    call: () => ({
      method: "POST",
      path: `/api/v2/profiles/${TRADING}/orders`,
      body: smallOrder(newRef("elsewhere"), { recipient_profile_id: SETTLEMENT }),
    }),
    also: {
      past: "POST /api/v2/profiles/{profile_id}/orders",
      action: "transfers:create",
      field: "recipient_profile_id",
    },
  },
  {
    route: "GET /api/v2/profiles/{profile_id}/orders/{id}",
    action: "read",
    call: () => ({ method: "GET", path: `/api/v2/profiles/${TRADING}/orders/${readableOrderId}` }),
  },
  {
    route: "DELETE /api/v2/profiles/{profile_id}/orders/{id}",
    action: "orders:cancel",
    call: async () => ({ method: "DELETE", path: await freshOrderPath() }),
    // The order is read back once the cancel is acknowledged, to push its new state at once.
    sends: (same) => [same, same.replace(/^DELETE/, "GET")],
  },
  {
    route: "GET /api/v2/transfer/transfers",
    action: "read",
    call: () => ({ method: "GET", path: "/api/v2/transfer/transfers?limit=5" }),
  },
  {
    route: "GET /api/v2/transfer/transfers/{id}",
    action: "read",
    call: () => ({ method: "GET", path: `/api/v2/transfer/transfers/${readableTransferId}` }),
  },
  {
    route: "POST /api/v2/transfer/internal",
    action: "transfers:create",
    call: () => ({ method: "POST", path: "/api/v2/transfer/internal", body: smallTransfer(newRef("role")) }),
  },
  {
    route: "GET /api/approvals",
    action: "read",
    call: () => ({ method: "GET", path: "/api/approvals?status=PENDING" }),
    local: true,
  },
  {
    route: "GET /api/approvals/{id}",
    action: "read",
    call: async () => ({ method: "GET", path: `/api/approvals/${await heldApproval("ops")}` }),
    local: true,
  },
  {
    route: "GET /api/approvals/{id}/context",
    action: "approve",
    // Read-only: the sending profile's balances now, for the approver's card.
    // One request (a trader's order) for every caller: the suite's transfers fill ops's daily limit.
    call: async () => ({
      method: "GET",
      path: `/api/approvals/${await (contextOf ??= heldApproval("trader"))}/context`,
    }),
    sends: [`GET /sandbox/v2/profiles/${TRADING}/balances`],
  },
  {
    route: "POST /api/approvals/{id}/approve",
    action: "approve",
    // An approver's approval sends the request: the one call to the service is the create.
    call: async () => ({ method: "POST", path: `/api/approvals/${await heldApproval("ops")}/approve` }),
    sends: ["POST /sandbox/v2/transfer/internal"],
  },
  {
    route: "POST /api/approvals/{id}/reject",
    action: "approve",
    call: async () => ({
      method: "POST",
      path: `/api/approvals/${await heldApproval("ops")}/reject`,
      body: { reason: "test" },
    }),
    local: true,
  },
  {
    route: "POST /api/approvals/{id}/withdraw",
    action: "approvals:withdraw",
    call: async (who) => ({ method: "POST", path: `/api/approvals/${await heldApproval(who)}/withdraw` }),
    local: true,
  },
  { route: "GET /api/policies", action: "read", call: () => ({ method: "GET", path: "/api/policies" }), local: true },
  {
    route: "PUT /api/policies",
    action: "policies:edit",
    call: async () => ({
      method: "PUT",
      path: "/api/policies",
      body: (await d.as.admin.call("GET", "/api/policies")).body.policy,
    }),
    local: true,
  },
  {
    route: "GET /api/rebalance/targets",
    action: "rebalance:targets",
    call: () => ({ method: "GET", path: "/api/rebalance/targets" }),
    local: true,
  },
  {
    route: "PUT /api/rebalance/targets",
    action: "rebalance:targets",
    call: () => ({ method: "PUT", path: "/api/rebalance/targets", body: { targets: REBALANCE_TARGETS } }),
    // Each profile named is looked up at the service before the targets are stored.
    sends: [`GET /sandbox/v2/profiles/${TREASURY}/balances`],
  },
  {
    route: "GET /api/rebalance/plan",
    action: "rebalance:targets",
    // Targets to plan for, whatever ran before: the plan reads the balances of the profiles they name.
    call: async () => {
      const set = await d.as.admin.call("PUT", "/api/rebalance/targets", { targets: REBALANCE_TARGETS });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      return { method: "GET", path: "/api/rebalance/plan" };
    },
    sends: [`GET /sandbox/v2/profiles/${TREASURY}/balances`],
  },
  {
    route: "GET /api/audit/verify",
    action: "audit:verify",
    call: () => ({ method: "GET", path: "/api/audit/verify" }),
    local: true,
  },
  {
    route: "GET /api/metrics",
    action: "metrics:read",
    call: () => ({ method: "GET", path: "/api/metrics" }),
    local: true, // counters in memory, gauges from the database
  },
  {
    route: "GET /api/audit",
    action: "audit:read",
    call: () => ({ method: "GET", path: "/api/audit?event=approval&limit=1" }),
    local: true,
  },
  {
    route: "GET /api/audit/export.csv",
    action: "audit:read",
    call: () => ({ method: "GET", path: "/api/audit/export.csv?event=sign-in" }),
    local: true,
    csv: true,
  },
  {
    route: "GET /api/sessions",
    action: "sessions:manage",
    call: () => ({ method: "GET", path: "/api/sessions" }),
    local: true,
  },
  {
    route: "DELETE /api/sessions/{id}",
    action: "sessions:manage",
    // A session of its own to end: a fresh sign-in, the newest in the admin's list.
    call: async () => {
      await signIn(d.target, "viewer@example.com");
      const list = await d.as.admin.call("GET", "/api/sessions");
      const newest = (list.body.items as { id: string; user_email: string }[]).find(
        (s) => s.user_email === "viewer@example.com",
      )!;
      return { method: "DELETE", path: `/api/sessions/${newest.id}` };
    },
    local: true,
  },
  { route: "GET /api/tokens", action: "tokens", call: () => ({ method: "GET", path: "/api/tokens" }), local: true },
  {
    route: "POST /api/tokens",
    action: "tokens",
    call: () => ({
      method: "POST",
      path: "/api/tokens",
      body: { name: "access", scopes: ["read"], expires_in_days: 1 },
    }),
    ok: 201,
    local: true,
  },
  {
    route: "DELETE /api/tokens/{id}",
    action: "tokens",
    // A token of the caller's own to revoke (a viewer's for no session).
    call: async (who) => {
      const owner = who === "anonymous" ? "viewer" : who;
      const res = await d.as[owner].call("POST", "/api/tokens", {
        name: "revoked",
        scopes: ["read"],
        expires_in_days: 1,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { method: "DELETE", path: `/api/tokens/${res.body.token.id}` };
    },
    local: true,
  },
  {
    route: "GET /api/webhooks",
    action: "webhooks:manage",
    call: () => ({ method: "GET", path: "/api/webhooks" }),
    local: true,
  },
  {
    route: "POST /api/webhooks",
    action: "webhooks:manage",
    call: () => ({ method: "POST", path: "/api/webhooks", body: { url: HOOK_URL, events: ["policy.changed"] } }),
    ok: 201,
    local: true,
  },
  {
    route: "DELETE /api/webhooks/{id}",
    action: "webhooks:manage",
    call: async () => ({ method: "DELETE", path: `/api/webhooks/${await newWebhook()}` }),
    local: true,
  },
  {
    route: "GET /api/webhooks/{id}/deliveries",
    action: "webhooks:manage",
    call: async () => ({ method: "GET", path: `/api/webhooks/${await newWebhook()}/deliveries` }),
    local: true,
  },
  {
    route: "POST /api/webhooks/{id}/test",
    action: "webhooks:manage",
    call: async () => ({ method: "POST", path: `/api/webhooks/${await newWebhook()}/test` }),
    ok: 202,
    local: true,
  },
  {
    route: "POST /api/webhooks/{id}/deliveries/{delivery_id}/retry",
    action: "webhooks:manage",
    call: async () => {
      const id = await newWebhook();
      const sent = await d.as.admin.call("POST", `/api/webhooks/${id}/test`);
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      return { method: "POST", path: `/api/webhooks/${id}/deliveries/${sent.body.delivery.id}/retry` };
    },
    ok: 202,
    local: true,
  },
  {
    route: "GET /api/notifications",
    action: "notifications",
    call: () => ({ method: "GET", path: "/api/notifications" }),
    local: true,
  },
  {
    route: "PUT /api/notifications",
    action: "notifications",
    // Each caller's own, left on.
    call: () => ({ method: "PUT", path: "/api/notifications", body: { approval_emails: true } }),
    local: true,
  },
] as const satisfies readonly RouteCase[];

/**
 * Where this file's webhooks point: a closed port on loopback (allowed here by WEBHOOK_ALLOW_HOSTS).
 * They listen to no order or transfer event: the record follower would read the service meanwhile.
 */
const HOOK_URL = "http://127.0.0.1:1/hooks";

/** A webhook of the admin's, for a route about one. */
async function newWebhook(): Promise<string> {
  const res = await d.as.admin.call("POST", "/api/webhooks", { url: HOOK_URL, events: ["policy.changed"] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.webhook.id as string;
}

/** Answers that are neither JSON nor CSV. */
const OTHER_TYPES: Record<string, RegExp> = { "/api/metrics": /^text\/plain; version=0\.0\.4/ };

type RouteName = (typeof ROUTES)[number]["route"];
type Status = 200 | 401 | 403;

/**
 * The answer each caller must get, written out by hand rather than read from lib/shared/roles.ts,
 * so a wrong permission there fails here. 200 allowed, 403 refused, 401 signed out.
 * Typed so that a route or a role left out does not compile.
 */
// prettier-ignore
const ACCESS: Record<RouteName, Record<Who, Status>> = {
  "GET /api/activity":                                { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/v2/markets":                              { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/v2/markets/{market}/order-book":          { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/v2/markets/{market}/ticker":              { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/v2/orders":                               { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/v2/profiles":                             { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/v2/profiles/{profile_id}/balances":       { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/v2/profiles/{profile_id}/orders":        { viewer: 403, trader: 200, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "POST /api/v2/profiles/{profile_id}/orders settling into another profile":
                                                      { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/v2/profiles/{profile_id}/orders/{id}":    { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "DELETE /api/v2/profiles/{profile_id}/orders/{id}": { viewer: 403, trader: 200, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/v2/transfer/transfers":                   { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/v2/transfer/transfers/{id}":              { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/v2/transfer/internal":                   { viewer: 403, trader: 403, ops: 200, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/approvals":                               { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/approvals/{id}":                          { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/approvals/{id}/context":                  { viewer: 403, trader: 403, ops: 403, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/approvals/{id}/approve":                 { viewer: 403, trader: 403, ops: 403, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/approvals/{id}/reject":                  { viewer: 403, trader: 403, ops: 403, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/approvals/{id}/withdraw":                { viewer: 403, trader: 200, ops: 200, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/policies":                                { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "PUT /api/policies":                                { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/rebalance/targets":                       { viewer: 403, trader: 403, ops: 200, approver: 403, admin: 200, anonymous: 401 },
  "PUT /api/rebalance/targets":                       { viewer: 403, trader: 403, ops: 200, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/rebalance/plan":                          { viewer: 403, trader: 403, ops: 200, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/audit/verify":                            { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/metrics":                                 { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/audit":                                   { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/audit/export.csv":                        { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/sessions":                                { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "DELETE /api/sessions/{id}":                        { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/tokens":                                  { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/tokens":                                 { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "DELETE /api/tokens/{id}":                          { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/notifications":                           { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "PUT /api/notifications":                           { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/activity/export.csv":                     { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/orders":                                  { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/orders/{order_id}/quality":               { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/orders/export.csv":                       { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/transfers":                               { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/transfers/export.csv":                    { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/v2/markets/{market}/recent-executions":   { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/activity/declined":                      { viewer: 403, trader: 200, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "POST /api/orders/preview":                         { viewer: 403, trader: 200, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "POST /api/transfers/preview":                      { viewer: 403, trader: 403, ops: 200, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/batches":                                 { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/batches":                                { viewer: 403, trader: 403, ops: 200, approver: 403, admin: 200, anonymous: 401 },
  "POST /api/batches/preview":                        { viewer: 403, trader: 403, ops: 200, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/batches/{id}":                            { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "GET /api/batches/{id}/results.csv":                { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/batches/{id}/cancel":                    { viewer: 403, trader: 403, ops: 200, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/parent-orders":                           { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/parent-orders":                          { viewer: 403, trader: 200, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/parent-orders/{id}":                      { viewer: 200, trader: 200, ops: 200, approver: 200, admin: 200, anonymous: 401 },
  "POST /api/parent-orders/{id}/pause":               { viewer: 403, trader: 200, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "POST /api/parent-orders/{id}/resume":              { viewer: 403, trader: 200, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "POST /api/parent-orders/{id}/cancel":              { viewer: 403, trader: 200, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/webhooks":                                { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "POST /api/webhooks":                               { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "DELETE /api/webhooks/{id}":                        { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "GET /api/webhooks/{id}/deliveries":                { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "POST /api/webhooks/{id}/test":                     { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
  "POST /api/webhooks/{id}/deliveries/{delivery_id}/retry":
                                                      { viewer: 403, trader: 403, ops: 403, approver: 403, admin: 200, anonymous: 401 },
};

/**
 * What the controls read to weigh a create: prices, and the funds of a create held or sent after
 * approval; a batch reads the desk's profiles too (the names its rows may use); a parent order's
 * answer, the market's recent trades (its execution quality) and the markets listed.
 */
const PRICE_READ =
  /^GET \/sandbox\/v2\/(markets|markets\/\w+\/(ticker|order-book|recent-executions)|profiles\/[\w-]+\/balances|profiles)$/;

const TABLE = ROUTES.flatMap((r: RouteCase & { route: RouteName }) =>
  WHO.map((who) => ({ ...r, who, expected: ACCESS[r.route][who] })),
);

describe("each role on each route", () => {
  it("covers every route handler the app has", () => {
    const handlers = routeFiles()
      .map((file) => file.replace(/^\/app/, "").replace(/\/route\.ts$/, "/"))
      // GET /api/events never ends: its 401 and every role's stream are tested in live.test.ts.
      // The probes (/api/health, /api/ready) need no session by design: production.test.ts; nor
      // does the API's description (/api/openapi.json): openapi.test.ts.
      .filter((k) => /^\/api\/(?!auth\/|events\/|health\/|ready\/|openapi\.json\/)/.test(k) && !k.includes("[...rest]"))
      .map((k) => k.replace(/\/$/, "").replace(/\[(\w+)\]/g, "{$1}"))
      .sort();
    expect([...new Set(ROUTES.map((r) => r.route.split(" ")[1]))].sort()).toEqual(handlers);
  });

  it.each(TABLE)("$route as $who: $expected", async ({ who, action, call, local, sends, csv, also, ok, expected }) => {
    const c = await call(who);
    const { result: res, sent } = await sentDuring(() => callAs(who, c));
    if (expected === 200) {
      expect(res.status, JSON.stringify(res.body)).toBe(ok ?? 200);
      expect(res.headers.get("content-type")).toMatch(
        csv ? /^text\/csv/ : (OTHER_TYPES[c.path] ?? /^application\/json/),
      );
      // A create also reads the prices that value it against the desk's controls.
      const calls = c.method === "POST" ? sent.filter((line) => !PRICE_READ.test(line)) : sent;
      const same = `${c.method} /sandbox/v2${c.path.replace(/^\/api\/v2/, "").split("?")[0]}`;
      expect(calls).toEqual(typeof sends === "function" ? sends(same) : (sends ?? (local ? [] : [same])));
      return;
    }
    const p = expectProblem(res, expected);
    if (expected === 403 && also && ACCESS[also.past as RouteName][who] === 200) {
      expect(p.meta).toEqual({
        role: who,
        action: also.action,
        errors: [{ field: also.field, message: expect.any(String) }],
      });
    } else if (expected === 403) expect(p.meta).toEqual({ role: who, action });
    else expect(p.title).toBe("Unauthorized");
    // Refused before anything reached the service.
    expect(sent).toEqual([]);
  });
});

describe("changes only from the dashboard's own origin (CSRF)", () => {
  const cases: [string, Role, () => Promise<Call>][] = [
    [
      "create order",
      "trader",
      async () => ({ method: "POST", path: `/api/v2/profiles/${TRADING}/orders`, body: smallOrder(newRef()) }),
    ],
    ["cancel order", "trader", async () => ({ method: "DELETE", path: await freshOrderPath() })],
    [
      "create transfer",
      "ops",
      async () => ({ method: "POST", path: "/api/v2/transfer/internal", body: smallTransfer(newRef()) }),
    ],
  ];

  it.each(cases)(
    "%s: refused (403) without Origin or from another origin, accepted from its own",
    async (_, role, make) => {
      const cookie = d.as[role].cookie();
      for (const origin of [undefined, "https://evil.example", d.url.replace("127.0.0.1", "localhost"), "null"]) {
        const c = await make();
        const headers: Record<string, string> = { Cookie: cookie, ...(origin ? { Origin: origin } : {}) };
        const { result, sent } = await sentDuring(() => rawCall(d.target, c.method, c.path, { body: c.body, headers }));
        expect(expectProblem(result, 403).detail).toMatch(/cross-origin/);
        expect(sent).toEqual([]);
        if (c.body && typeof c.body === "object" && "ref_id" in c.body) {
          expect(await d.journal(String(c.body.ref_id))).toEqual([]);
        }
      }
      const c = await make();
      const ok = await rawCall(d.target, c.method, c.path, {
        body: c.body,
        headers: { Cookie: cookie, Origin: d.url },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    },
  );

  it("reads need no Origin", async () => {
    const res = await rawCall(d.target, "GET", "/api/v2/profiles", { headers: { Cookie: d.as.viewer.cookie() } });
    expect(res.status).toBe(200);
  });
});

describe("path parameters are checked before anything is sent", () => {
  const BAD: [string, string][] = [
    ["an encoded slash", "a%2Fb"],
    ["an encoded slash climbing out", "..%2F..%2Ftransfer"],
    ["an encoded slash alone", "%2F"],
    ["a double-encoded slash", "a%252Fb"],
    ["two dots inside", "a..b"],
    ["an encoded backslash", "a%5Cb"],
    ["a NUL", "a%00b"],
  ];
  const PLACES: [string, Role, string, (bad: string) => Call][] = [
    ["balances", "viewer", "profile_id", (x) => ({ method: "GET", path: `/api/v2/profiles/${x}/balances` })],
    [
      "create order",
      "trader",
      "profile_id",
      (x) => ({ method: "POST", path: `/api/v2/profiles/${x}/orders`, body: smallOrder(newRef("path")) }),
    ],
    ["get order", "viewer", "id", (x) => ({ method: "GET", path: `/api/v2/profiles/${TRADING}/orders/${x}` })],
    ["cancel order", "trader", "profile_id", (x) => ({ method: "DELETE", path: `/api/v2/profiles/${x}/orders/abc` })],
    ["get transfer", "viewer", "id", (x) => ({ method: "GET", path: `/api/v2/transfer/transfers/${x}` })],
    ["ticker", "viewer", "market", (x) => ({ method: "GET", path: `/api/v2/markets/ETH${x}/ticker` })],
    [
      "recent executions",
      "viewer",
      "market",
      (x) => ({ method: "GET", path: `/api/v2/markets/ETH${x}/recent-executions` }),
    ],
  ];
  const cases = PLACES.flatMap(([place, role, field, make]) =>
    BAD.map(([what, bad]) => ({ place, role, field, make, what, bad })),
  );

  it.each(cases)("$place with $what ($bad): 400 naming $field, nothing sent", async ({ role, field, make, bad }) => {
    const c = make(bad);
    const { result, sent } = await sentDuring(() => d.as[role].call(c.method, c.path, c.body));
    const p = expectProblem(result, 400);
    expect(new Set(p.meta.errors.map((e: { field: string }) => e.field))).toEqual(new Set([field]));
    expect(sent).toEqual([]);
    if (c.body) expect(await d.journal((c.body as { ref_id: string }).ref_id)).toEqual([]);
  });
});

describe("only the dashboard's operations pass through", () => {
  it.each([
    ["GET", "/api/v2/nope"],
    ["POST", "/api/v2/transfer/external"],
    ["GET", "/api/v2/transfer"],
    ["POST", `/api/v2/sandbox/profiles/${TRADING}/deposit`],
    ["GET", `/api/v2/profiles/${TRADING}`],
    ["GET", "/api/v2/markets/ETHUSD/trades"],
  ])("%s %s: a 404 problem for every role, nothing sent", async (method, path) => {
    for (const who of WHO) {
      const { result, sent } = await sentDuring(() => callAs(who, { method, path }));
      expect(expectProblem(result, 404).detail).toContain(path.split("?")[0]);
      expect(sent).toEqual([]);
    }
  });
});

describe("a method a route does not offer", () => {
  it.each([
    ["DELETE", `/api/v2/profiles/${TRADING}/orders`, "POST"],
    ["PUT", "/api/v2/profiles", "GET"],
    ["POST", "/api/activity", "GET"],
    ["PATCH", `/api/v2/profiles/${TRADING}/orders/abc`, "GET, DELETE"],
    ["GET", "/api/v2/transfer/internal", "POST"],
    ["POST", "/api/orders", "GET"],
    ["DELETE", "/api/transfers/export.csv", "GET"],
    ["POST", "/api/rebalance/targets", "GET, PUT"],
    ["PUT", "/api/rebalance/plan", "GET"],
  ])("%s %s: a 405 problem naming what it takes (Allow: %s), nothing sent", async (method, path, allow) => {
    const { result, sent } = await sentDuring(() => d.as.admin.call(method, path));
    expectProblem(result, 405);
    expect(result.headers.get("allow")).toBe(allow);
    expect(sent).toEqual([]);
  });
});

describe("requests are validated before they are journaled or sent", () => {
  const order = (extra: Record<string, unknown>, ref = newRef("bad")) => ({ ...smallOrder(ref), ...extra });
  const BAD_ORDERS: [string, Record<string, unknown>, string][] = [
    ["a missing base amount", { base_amount: undefined }, "base_amount"],
    ["a price off the tick", { price: "100.001" }, "price"],
    ["a number for an amount", { base_amount: 1 }, "base_amount"],
    ["an unknown market", { market: "DOGEUSD" }, "market"],
    ["an unknown field", { leverage: "10" }, "leverage"],
    ["a time in force the type refuses", { type: "MARKET", price: undefined, time_in_force: "GTC" }, "time_in_force"],
    ["identity_id without identity_account_id", { identity_id: "id-1" }, "identity_account_id"],
    ["await_fill_millis above 10 s", { await_fill_millis: 10_001 }, "await_fill_millis"],
    [
      "seven metadata pairs",
      { metadata: Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((i) => [`k${i}`, "v"])) },
      "metadata",
    ],
  ];

  it.each(BAD_ORDERS)(
    "create order with %s: 400 naming %s, no journal entry, nothing sent",
    async (_, extra, field) => {
      const body = order(extra);
      const { result, sent } = await sentDuring(() =>
        d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body),
      );
      const p = expectProblem(result, 400);
      expect(p.meta.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(p.detail).toContain(field);
      expect(sent).toEqual([]);
      expect(await d.journal(body.ref_id as string)).toEqual([]);
    },
  );

  it.each([
    ["a negative amount", { amount: "-5" }, "amount"],
    ["a missing destination", { to_profile_id: undefined }, "to_profile_id"],
    ["a profile id with a slash", { from_profile_id: "a/b" }, "from_profile_id"],
  ])("create transfer with %s: 400 naming %s, no journal entry, nothing sent", async (_, extra, field) => {
    const body = { ...smallTransfer(newRef("bad")), ...extra };
    const { result, sent } = await sentDuring(() => d.as.ops.call("POST", "/api/v2/transfer/internal", body));
    const p = expectProblem(result, 400);
    expect(p.meta.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(sent).toEqual([]);
    expect(await d.journal(body.ref_id!)).toEqual([]);
  });

  it.each([
    ["not JSON", "{not json"],
    ["a JSON array", "[]"],
    ["JSON null", "null"],
  ])("a body that is %s: 400 naming body, nothing sent", async (_, text) => {
    const { result, sent } = await sentDuring(() =>
      rawCall(d.target, "POST", `/api/v2/profiles/${TRADING}/orders`, {
        body: text,
        headers: { Cookie: d.as.trader.cookie(), Origin: d.url },
      }),
    );
    expect(expectProblem(result, 400).meta.errors[0].field).toBe("body");
    expect(sent).toEqual([]);
  });

  it.each([
    ["/api/v2/orders?sort=price", "sort"],
    ["/api/v2/transfer/transfers?profile_id=x", "profile_id"],
    ["/api/orders?sort_by=amount", "sort_by"],
    ["/api/transfers?profile_id=x", "profile_id"],
    ["/api/activity/export.csv?limit=5", "limit"],
  ])("a list with an unknown query parameter (%s): 400 naming it, nothing sent", async (path, field) => {
    const { result, sent } = await sentDuring(() => d.as.viewer.call("GET", path));
    expect(expectProblem(result, 400).meta.errors[0].field).toBe(field);
    expect(sent).toEqual([]);
  });
});
