import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/shared/roles";
import { signIn } from "../../support/app-server";
import {
  expectProblem,
  metricValue,
  newRef,
  smallOrder,
  smallTransfer,
  TRADING,
  type Client,
} from "../../support/dashboard";
import { sandboxClient } from "../../support/sandbox-server";
import { resetApp, type SharedApp } from "../../support/shared-app";

/**
 * The default configuration: no SERVICE_BASE_URL, so the dashboard's calls to its embedded
 * sandbox are served in-process (instrumentation.ts). Every other app test goes through
 * the fault proxy over HTTP; this one checks the in-process path keeps the service's
 * answers, problems and time limit exactly.
 */

let app: SharedApp;
let as: Record<Role, Client>;
let sandbox: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
  // No proxy (the sandbox served in-process), and SERVICE_TIMEOUT_MS of 1 s.
  app = await resetApp({ SERVICE_TIMEOUT_MS: "1000" });
  const roles: Role[] = ["viewer", "trader", "ops", "approver", "admin"];
  as = Object.fromEntries(
    await Promise.all(roles.map(async (r) => [r, await signIn(app, `${r}@example.com`)] as const)),
  ) as Record<Role, Client>;
  sandbox = sandboxClient(app.url);
});

const journal = async (ref: string) => (await as.admin.call("GET", `/api/activity?ref_ids=${ref}`)).body.items;
const orders = async (ref: string) => (await sandbox.call("GET", `/orders?ref_ids=${ref}`)).body.items;

describe("the embedded sandbox, served in-process", () => {
  it("creates an order once, journaled, with the service's record", async () => {
    const ref = newRef();
    const res = await as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ ref_id: ref, status: "SUBMITTED", profile_id: TRADING });
    expect(await orders(ref)).toEqual([expect.objectContaining({ id: res.body.id })]);
    expect(await journal(ref)).toEqual([expect.objectContaining({ status: "succeeded", result_id: res.body.id })]);
  });

  it("creates an internal transfer once", async () => {
    const ref = newRef();
    const res = await as.ops.call("POST", "/api/v2/transfer/internal", smallTransfer(ref));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ref_id: ref, direction: "DEBIT", status: "PENDING" });
  });

  it("reads pass through: profiles, balances, orders, transfers, markets", async () => {
    for (const path of [
      "/api/v2/profiles",
      `/api/v2/profiles/${TRADING}/balances`,
      "/api/v2/orders?limit=2",
      "/api/v2/transfer/transfers?limit=2",
      "/api/v2/markets",
      "/api/v2/markets/BTCUSD/order-book",
      "/api/v2/markets/BTCUSD/recent-executions",
    ]) {
      const res = await as.viewer.call("GET", path);
      expect(res.status, path).toBe(200);
    }
  });

  it("the service's problems pass through with their status: 403 with meta, 404, 409", async () => {
    const broke = await as.trader.call(
      "POST",
      `/api/v2/profiles/${TRADING}/orders`,
      smallOrder(newRef(), { side: "SELL", price: "100.00", base_amount: "601" }),
    );
    expect(expectProblem(broke, 403).meta).toMatchObject({ asset: "ETH", profile_id: TRADING });
    const unknown = "00000000-0000-4000-8000-000000000000";
    expectProblem(await as.viewer.call("GET", `/api/v2/profiles/${unknown}/balances`), 404);
    const ref = newRef();
    expect(
      (await sandbox.call("POST", `/profiles/${TRADING}/orders`, smallOrder(ref, { price: "101.00" }))).status,
    ).toBe(200);
    expectProblem(await as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref)), 409);
  });

  it("keeps SERVICE_TIMEOUT_MS: a create waiting longer for its fill is answered with the one order it made", async () => {
    const ref = newRef();
    // The service's calls that came back with nothing (status 0): the timed-out ones.
    const timedOut = () =>
      metricValue(as.admin, "dashboard_upstream_requests_total", {
        route: "/profiles/{profile_id}/orders",
        status: "0",
      });
    const before = await timedOut();
    const res = await as.trader.call(
      "POST",
      `/api/v2/profiles/${TRADING}/orders`,
      smallOrder(ref, { await_fill_millis: 4000 }),
    );
    // Timed out at 1 s, retried with the same ref_id, the 409 resolved to the order.
    expect(await timedOut()).toBeGreaterThanOrEqual(before + 1);
    expect(res.status).toBe(200);
    expect(await orders(ref)).toEqual([expect.objectContaining({ id: res.body.id })]);
  });
});
