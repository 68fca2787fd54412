import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AWAITING_APPROVAL } from "@/lib/shared/held-requests";
import type { Role } from "@/lib/shared/roles";
import { byName, parseCsv } from "../support/csv";
import { RESERVE } from "../support/requests";
import {
  inProcessDashboard,
  newRef,
  SETTLEMENT,
  smallOrder,
  smallTransfer,
  TRADING,
  TREASURY,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * Held requests in the blotters, the route handlers called in process: a sell the desk's four
 * eyes hold (worth more than the order rule's 100,000 USD) and a 120 USD transfer (over a
 * transfer rule tightened to 100 USD) are in the first page of GET /api/orders and
 * GET /api/transfers under `held`, and in their CSVs, under the tables' filters; status
 * AWAITING_APPROVAL is answered from the approvals table, never asked of the service; they
 * leave once decided or past their time.
 */

let d: InProcessDashboard;
interface HeldAnswer {
  id: string;
  expires_at: string;
  /** The create's ref_id (the approval's answer has it in its request). */
  ref_id: string;
}
let sell: HeldAnswer;
let transfer: HeldAnswer;
const ROLES: Role[] = ["viewer", "trader", "ops", "approver", "admin"];

/** Answers 202 with the held request. */
async function hold(role: Role, path: string, body: Record<string, unknown>): Promise<HeldAnswer> {
  const res = await d.as[role].call("POST", path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return { ...res.body.approval, ref_id: body.ref_id };
}

const holdSell = (base_amount = "3") =>
  hold(
    "trader",
    `/api/v2/profiles/${TRADING}/orders`,
    smallOrder(newRef("held-sell"), { market: "BTCUSD", side: "SELL", price: "90000.00", base_amount }),
  );

beforeAll(async () => {
  d = await inProcessDashboard();
  // Three orders and two transfers the service has, so that a second page exists.
  for (let i = 1; i <= 3; i++) {
    const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef("sent")));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  for (const amount of ["1.25", "2.50"]) {
    const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", smallTransfer(newRef("sent"), { amount }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  // Tightening applies at once: transfers of 100 USD and more wait for an approver, and held
  // orders expire after 5 minutes (moved past well within the sessions' idle timeout).
  const { policy } = (await d.as.admin.call("GET", "/api/policies")).body;
  const rules = policy.approval_rules.map((r: { kind: string }) =>
    r.kind === "transfer" ? { ...r, threshold_usd: "100" } : { ...r, open_minutes: 5 },
  );
  expect((await d.as.admin.call("PUT", "/api/policies", { ...policy, approval_rules: rules })).status).toBe(200);
  sell = await holdSell();
  transfer = await hold("ops", "/api/v2/transfer/internal", smallTransfer(newRef("held-t"), { amount: "120" }));
});
afterAll(() => d?.dispose());

/** Calls to the service's path made while `run` ran. */
async function serviceCallsDuring<T>(path: string, run: () => Promise<T>) {
  const mark = d.proxy.requests.length;
  const result = await run();
  return { result, calls: d.proxy.requests.slice(mark).filter((r) => r.path.endsWith(path)).length };
}

const heldIds = async (path: string, role: Role = "viewer"): Promise<string[]> => {
  const res = await d.as[role].call("GET", path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.held, `${path} has no held field`).toBeInstanceOf(Array);
  return res.body.held.map((h: { approval_id: string }) => h.approval_id);
};

async function csvRows(path: string) {
  const res = await d.target.fetch!(`${d.url}${path}`, { headers: { Cookie: d.as.viewer.cookie() } });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return byName(parseCsv(text));
}

describe("GET /api/orders: held orders on the first page", () => {
  it("carries the held sell with its requester, times and request, beside the service's items", async () => {
    const res = await d.as.viewer.call("GET", "/api/orders?limit=2");
    expect(res.body.items).toHaveLength(2);
    expect(res.body.held).toEqual([
      expect.objectContaining({
        approval_id: sell.id,
        ref_id: sell.ref_id,
        profile_id: TRADING,
        requested_by: "trader@example.com",
        requested_role: "trader",
        expires_at: sell.expires_at,
        request: expect.objectContaining({ market: "BTCUSD", side: "SELL", price: "90000.00", base_amount: "3" }),
      }),
    ]);
    // Not sent: the service has no such order.
    expect(res.body.items.map((o: { ref_id: string }) => o.ref_id)).not.toContain(sell.ref_id);
    expect(await d.sandboxOrders(sell.ref_id)).toEqual([]);
  });

  it("does not repeat them on the next page", async () => {
    const first = await d.as.viewer.call("GET", "/api/orders?limit=2");
    const next = await d.as.viewer.call("GET", `/api/orders?limit=2&cursor=${first.body.next_cursor}`);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.items.length).toBeGreaterThan(0);
    expect(next.body).not.toHaveProperty("held");
  });

  it("applies the table's filters to them: profile, market, side and type", async () => {
    expect(await heldIds(`/api/orders?profile_id=${TRADING}&market=BTCUSD&side=SELL&type=LIMIT`)).toEqual([sell.id]);
    expect(await heldIds(`/api/orders?profile_id=${TREASURY}`)).toEqual([]);
    expect(await heldIds("/api/orders?market=ETHUSD")).toEqual([]);
    expect(await heldIds("/api/orders?side=BUY")).toEqual([]);
    expect(await heldIds("/api/orders?type=MARKET")).toEqual([]);
  });

  it("answers status=AWAITING_APPROVAL from the approvals table alone; a status of the service's leaves them out", async () => {
    const { result, calls } = await serviceCallsDuring("/orders", () =>
      d.as.viewer.call("GET", `/api/orders?status=${AWAITING_APPROVAL}`),
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ items: [], next_cursor: null, scanned: 0 });
    expect(result.body.held.map((h: { approval_id: string }) => h.approval_id)).toEqual([sell.id]);
    expect(calls).toBe(0);
    expect(await heldIds("/api/orders?status=OPEN")).toEqual([]);
    expect((await d.as.viewer.call("GET", "/api/orders?status=HELD")).status).toBe(400);
  });

  it("shows every role what GET /api/approvals shows it", async () => {
    for (const role of ROLES) {
      const pending = (await d.as[role].call("GET", "/api/approvals?status=PENDING")).body.items
        .filter((a: { kind: string }) => a.kind === "order")
        .map((a: { id: string }) => a.id);
      expect(pending, role).toContain(sell.id);
      expect(await heldIds("/api/orders", role), role).toEqual(pending);
    }
  });
});

describe("GET /api/orders/export.csv: held orders as rows", () => {
  it("writes the held sell first, status AWAITING_APPROVAL, with its approval id, requester and expiry", async () => {
    const rows = await csvRows("/api/orders/export.csv");
    expect(rows).toHaveLength(1 + 3);
    expect(rows[0]).toMatchObject({
      id: "",
      status: AWAITING_APPROVAL,
      profile_id: TRADING,
      profile: "Trading",
      market: "BTCUSD",
      side: "SELL",
      price: "90000.00",
      base_amount: "3",
      ref_id: sell.ref_id,
      approval_id: sell.id,
      requested_by: "trader@example.com",
      approval_expires_at: new Date(sell.expires_at).toISOString(),
    });
    expect(rows.slice(1).map((r) => r.approval_id)).toEqual(["", "", ""]);
  });

  it("honours side and status like the list", async () => {
    expect((await csvRows("/api/orders/export.csv?side=SELL")).map((r) => r.approval_id)).toEqual([sell.id]);
    expect((await csvRows("/api/orders/export.csv?side=BUY")).map((r) => r.status)).not.toContain(AWAITING_APPROVAL);
    const { result, calls } = await serviceCallsDuring("/orders", () =>
      csvRows(`/api/orders/export.csv?status=${AWAITING_APPROVAL}`),
    );
    expect(result.map((r) => r.approval_id)).toEqual([sell.id]);
    expect(calls).toBe(0);
    expect((await csvRows("/api/orders/export.csv?status=OPEN")).map((r) => r.status)).not.toContain(AWAITING_APPROVAL);
  });
});

describe("GET /api/transfers: held transfers on the first page", () => {
  it("carries the held 120 USD transfer, not on the next page", async () => {
    const res = await d.as.viewer.call("GET", "/api/transfers?limit=2");
    expect(res.body.held).toEqual([
      expect.objectContaining({
        approval_id: transfer.id,
        profile_id: TREASURY,
        requested_by: "ops@example.com",
        expires_at: transfer.expires_at,
        request: expect.objectContaining({ from_profile_id: TREASURY, to_profile_id: SETTLEMENT, amount: "120" }),
      }),
    ]);
    expect(await d.sandboxTransfers(transfer.ref_id)).toEqual([]);
    const next = await d.as.viewer.call("GET", `/api/transfers?limit=2&cursor=${res.body.next_cursor}`);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body).not.toHaveProperty("held");
  });

  it("applies the table's filters: either profile, type, asset, the days asked", async () => {
    expect(await heldIds(`/api/transfers?profile_ids=${SETTLEMENT}`)).toEqual([transfer.id]);
    expect(await heldIds(`/api/transfers?profile_ids=${TREASURY}&type=INTERNAL_TRANSFER_DEBIT`)).toEqual([transfer.id]);
    expect(await heldIds(`/api/transfers?profile_ids=${RESERVE}`)).toEqual([]);
    expect(await heldIds("/api/transfers?type=CRYPTO_DEPOSIT")).toEqual([]);
    expect(await heldIds("/api/transfers?asset=BTC")).toEqual([]);
    expect(await heldIds("/api/transfers?asset=USD")).toEqual([transfer.id]);
    const after = new Date(Date.parse(transfer.expires_at)).toISOString();
    expect(await heldIds(`/api/transfers?from=${after}`)).toEqual([]);
  });

  it("answers statuses=AWAITING_APPROVAL without the service; a status of the service's alone leaves them out", async () => {
    const { result, calls } = await serviceCallsDuring("/transfer/transfers", () =>
      d.as.viewer.call("GET", `/api/transfers?statuses=${AWAITING_APPROVAL}`),
    );
    expect(result.body).toMatchObject({ items: [], next_cursor: null });
    expect(result.body.held.map((h: { approval_id: string }) => h.approval_id)).toEqual([transfer.id]);
    expect(calls).toBe(0);
    expect(await heldIds("/api/transfers?statuses=PENDING")).toEqual([]);
    // Beside a status of the service's, that status is asked of it, and the held ones come too.
    const both = await serviceCallsDuring("/transfer/transfers", () =>
      d.as.viewer.call("GET", `/api/transfers?statuses=PENDING&statuses=${AWAITING_APPROVAL}`),
    );
    expect(both.result.body.held.map((h: { approval_id: string }) => h.approval_id)).toEqual([transfer.id]);
    expect(both.calls).toBe(1);
    const sent = d.proxy.requests.filter((r) => r.path.endsWith("/transfer/transfers")).at(-1)!;
    expect(new URLSearchParams(sent.search).getAll("statuses")).toEqual(["PENDING"]);
  });

  it("exports the legs it would make, status AWAITING_APPROVAL, under the same filters", async () => {
    const rows = (await csvRows("/api/transfers/export.csv")).filter((r) => r.status === AWAITING_APPROVAL);
    expect(rows.map((r) => [r.direction, r.type, r.profile_id, r.amount])).toEqual([
      ["DEBIT", "INTERNAL_TRANSFER_DEBIT", TREASURY, "120"],
      ["CREDIT", "INTERNAL_TRANSFER_CREDIT", SETTLEMENT, "120"],
    ]);
    for (const r of rows)
      expect(r).toMatchObject({
        id: "",
        approval_id: transfer.id,
        requested_by: "ops@example.com",
        approval_expires_at: new Date(transfer.expires_at).toISOString(),
      });
    const credits = await csvRows(`/api/transfers/export.csv?profile_ids=${SETTLEMENT}`);
    expect(credits.filter((r) => r.status === AWAITING_APPROVAL).map((r) => r.direction)).toEqual(["CREDIT"]);
    const pending = await csvRows("/api/transfers/export.csv?statuses=PENDING");
    expect(pending.map((r) => r.status)).not.toContain(AWAITING_APPROVAL);
  });
});

describe("a decided request leaves the held rows", () => {
  it("a rejected transfer leaves the list and the CSV", async () => {
    const res = await d.as.approver.call("POST", `/api/approvals/${transfer.id}/reject`, { reason: "Not today" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await heldIds("/api/transfers")).toEqual([]);
    expect((await csvRows("/api/transfers/export.csv")).map((r) => r.status)).not.toContain(AWAITING_APPROVAL);
  });

  it("an approved order leaves the held rows and is listed as the service's record", async () => {
    const res = await d.as.approver.call("POST", `/api/approvals/${sell.id}/approve`);
    expect(res.body.approval, JSON.stringify(res.body)).toMatchObject({ status: "APPROVED", outcome: { status: 200 } });
    const page = await d.as.viewer.call("GET", "/api/orders?side=SELL");
    expect(page.body.held).toEqual([]);
    expect(page.body.items.map((o: { ref_id: string }) => o.ref_id)).toEqual([sell.ref_id]);
    expect((await csvRows("/api/orders/export.csv?side=SELL")).map((r) => r.status)).not.toContain(AWAITING_APPROVAL);
  });

  it("a request past its time leaves", async () => {
    const late = await holdSell("2.5");
    expect(await heldIds("/api/orders")).toEqual([late.id]);
    d.app.clock.advance(Date.parse(late.expires_at) - d.app.clock.now());
    expect(await heldIds("/api/orders")).toEqual([]);
  });
});
