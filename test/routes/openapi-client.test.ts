import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dashboardClient,
  exportOrders,
  listOrders,
  makeTransfer,
  placeOrder,
  type DashboardClient,
} from "@/docs/samples/api-client/client";
import { openApiDocument } from "@/lib/server/openapi/document";
import { API_TYPES_FILE, apiTypes } from "@/scripts/api-types";
import type { Role } from "@/lib/shared/roles";
import {
  inProcessDashboard,
  newRef,
  quote,
  SETTLEMENT,
  TRADING,
  TREASURY,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * The "done when": a client generated from GET /api/openapi.json (openapi-typescript's
 * types, openapi-fetch; docs/samples/api-client/, as docs/api.md shows it) places orders and
 * makes transfers with personal API tokens, and the desk's controls weigh each: four eyes (202),
 * the limits (403), the price guard (428, then its header). Every answer's status must be one
 * the document lists for that operation: the document cannot promise what the routes do not do.
 */

type Responses = Record<string, unknown>;
const doc = openApiDocument() as { paths: Record<string, Record<string, { responses: Responses }>> };
/** Each documented path as a pattern of its concrete URLs, with its operations' statuses. */
const operations = Object.entries(doc.paths).map(([path, ops]) => ({
  path,
  pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`),
  ops,
}));
/** Statuses seen that the document does not list, as "METHOD /path STATUS". */
const undocumented: string[] = [];

function documented(request: Request, response: Response): void {
  const { pathname } = new URL(request.url);
  const found = operations.find((o) => o.pattern.test(pathname));
  const op = found?.ops[request.method.toLowerCase()];
  if (!op?.responses[String(response.status)])
    undocumented.push(`${request.method} ${found?.path ?? pathname} ${response.status}`);
}

let d: InProcessDashboard;
const clients = {} as Record<"trader" | "ops", DashboardClient>;

/** A token of `role`'s demo user with `scopes`, made as the browser makes it; the client holds its secret. */
async function clientOf(role: Role, scopes: string[]): Promise<DashboardClient> {
  const res = await d.as[role].call("POST", "/api/tokens", { name: `${role}'s script`, scopes, expires_in_days: 7 });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return dashboardClient(d.url, res.body.secret, async (request) => {
    const response = await d.app.fetch(request);
    documented(request, response);
    return response;
  });
}

beforeAll(async () => {
  d = await inProcessDashboard();
  // BTCUSD at 64,000 / 66,000: a mid of 65,000, for the price guard.
  await quote(d, "BTCUSD", "64000.00", "66000.00");
  clients.trader = await clientOf("trader", ["trade", "read"]);
  clients.ops = await clientOf("ops", ["transfer"]);
});
afterAll(() => d?.dispose());

describe("the generated client's types", () => {
  it("are what openapi-typescript makes of today's document (npm run api:types writes them)", async () => {
    expect(readFileSync(API_TYPES_FILE, "utf8") === (await apiTypes()), "run npm run api:types").toBe(true);
  });
});

describe("a script's orders through the generated client, as a trader's token", () => {
  const order = (ref: string, price: string, base_amount: string) => ({
    market: "ETHUSD" as const,
    side: "BUY" as const,
    type: "LIMIT" as const,
    price,
    base_amount,
    ref_id: ref,
  });

  it("sends an order within the controls: 200 with the service's order", async () => {
    const ref = newRef("client-small");
    const { data, response } = await placeOrder(clients.trader, TRADING, order(ref, "100.00", "0.01"));
    expect(response.status, JSON.stringify(data)).toBe(200);
    expect(data).toMatchObject({ ref_id: ref, market: "ETHUSD", status: expect.any(String) });
    expect(await d.sandboxOrders(ref)).toHaveLength(1);
  });

  it("holds an order over the approval threshold: 202, waiting for an approver, nothing sent", async () => {
    const ref = newRef("client-held");
    const { data, response } = await placeOrder(clients.trader, TRADING, order(ref, "1000.00", "100"));
    expect(response.status, JSON.stringify(data)).toBe(202);
    expect(data).toMatchObject({ approval: { status: "PENDING", kind: "order", requested_by: "trader@example.com" } });
    expect(await d.sandboxOrders(ref)).toEqual([]);
    const inbox = await d.as.approver.call("GET", "/api/approvals?status=PENDING");
    expect(inbox.body.items.map((a: { request: { ref_id: string } }) => a.request.ref_id)).toContain(ref);
  });

  it("refuses an order past the trader's largest order: 403 naming the limit, nothing sent", async () => {
    const ref = newRef("client-limit");
    const { error, response } = await placeOrder(clients.trader, TRADING, order(ref, "1000.00", "2000"));
    expect(response.status).toBe(403);
    expect(error?.detail).toMatch(/may be worth at most 1,000,000/);
    expect(await d.sandboxOrders(ref)).toEqual([]);
  });

  it("asks before an order far from the mid (428), and sends it with Confirm-Price-Guard", async () => {
    const ref = newRef("client-guard");
    // 7.7 % over the mid: past the guard's 5 %, within the band the service itself refuses past (15 %).
    const far = { ...order(ref, "70000.00", "0.001"), market: "BTCUSD" as const };
    const asked = await placeOrder(clients.trader, TRADING, far);
    expect(asked.response.status).toBe(428);
    expect(asked.error?.meta).toMatchObject({ market: "BTCUSD", mid: expect.stringMatching(/^65000(\.0+)?$/) });
    expect(await d.sandboxOrders(ref)).toEqual([]);
    const sent = await placeOrder(clients.trader, TRADING, far, "BTCUSD");
    expect(sent.response.status, JSON.stringify(sent.error)).toBe(200);
    expect(await d.sandboxOrders(ref)).toHaveLength(1);
  });

  it("lists the orders (the held one beside them) and exports them as CSV", async () => {
    const ref = newRef("client-list");
    expect((await placeOrder(clients.trader, TRADING, order(ref, "100.00", "0.02"))).response.status).toBe(200);
    const { data } = await listOrders(clients.trader, "ETHUSD");
    expect(data?.items.map((o) => o.ref_id)).toContain(ref);
    expect(data?.held?.length, "the order held above").toBeGreaterThan(0);
    const csv = await exportOrders(clients.trader, "ETHUSD");
    expect(csv.response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.data).toContain(ref);
  });
});

describe("a script's transfers through the generated client, as an ops token", () => {
  const transfer = (ref: string, amount: string) => ({
    from_profile_id: TREASURY,
    to_profile_id: SETTLEMENT,
    asset: "USD",
    amount,
    ref_id: ref,
  });

  it("sends a transfer within the controls: 200 with the service's transfer", async () => {
    const ref = newRef("client-transfer");
    const { data, response } = await makeTransfer(clients.ops, transfer(ref, "1.25"));
    expect(response.status, JSON.stringify(data)).toBe(200);
    expect(data).toMatchObject({ ref_id: ref, asset: "USD" });
  });

  it("holds a transfer over the approval threshold: 202, nothing sent", async () => {
    const ref = newRef("client-transfer-held");
    const { data, response } = await makeTransfer(clients.ops, transfer(ref, "20000"));
    expect(response.status, JSON.stringify(data)).toBe(202);
    expect(data).toMatchObject({ approval: { status: "PENDING", kind: "transfer" } });
    expect(await d.sandboxTransfers(ref)).toEqual([]);
  });

  it("refuses a transfer past the daily transfer limit: 403 naming it, nothing sent", async () => {
    const ref = newRef("client-transfer-limit");
    const { error, response } = await makeTransfer(clients.ops, transfer(ref, "1000001"));
    expect(response.status).toBe(403);
    expect(error?.detail).toMatch(/at most 1,000,000.00 USD of transfers a day/);
    expect(await d.sandboxTransfers(ref)).toEqual([]);
  });

  it("may not place an order: the token's scopes narrow its owner's role (403)", async () => {
    const { error, response } = await placeOrder(clients.ops, TRADING, {
      market: "ETHUSD",
      side: "BUY",
      type: "LIMIT",
      price: "100.00",
      base_amount: "0.01",
      ref_id: newRef("client-scope"),
    });
    expect(response.status).toBe(403);
    expect(error?.title).toBe("Forbidden");
  });
});

describe("the document's statuses", () => {
  it("list every status the calls above were answered", () => {
    expect(undocumented).toEqual([]);
  });
});
