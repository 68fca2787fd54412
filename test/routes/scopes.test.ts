import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_POLICY } from "@/lib/shared/policy";
import { insertApproval } from "@/lib/server/db/approvals";
import { OPERATIONS } from "@/lib/spec";
import { TOKEN_PATH } from "../support/faults";
import {
  expectProblem,
  inProcessDashboard,
  newRef,
  smallOrder,
  smallTransfer,
  TREASURY,
  TRADING,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * The dashboard with read-only credentials, as the service recommends for least privilege
 * (SERVICE_SCOPES without the two write scopes): its token asks for exactly those, the reads
 * the pages make work, and every create answers 403 naming the missing scope without calling
 * the service at all, nor does an approver's approve of a transfer held before the scope went.
 * The route handlers are called in process; the pages themselves (the
 * ticket's and the transfer form's notes) are loaded from the running app in
 * test/integration/app/http.test.ts.
 */

const READ_ONLY = ["exchange:read_order", "transfer:read_transfer", "funding:read_profile"];
const UNKNOWN_ORDER = "00000000-0000-4000-8000-000000000000";
let d: InProcessDashboard;

beforeAll(async () => {
  d = await inProcessDashboard({ env: { SERVICE_SCOPES: READ_ONLY.join(" ") } });
});
afterAll(() => d?.dispose());

const since = (index: number) => d.proxy.requests.slice(index);

describe("read-only credentials (SERVICE_SCOPES)", () => {
  it("the pages' reads all work, with one token that asks for exactly the configured scopes", async () => {
    const reads = [
      "/api/orders?limit=5",
      "/api/transfers?limit=5",
      "/api/v2/profiles",
      `/api/v2/profiles/${TRADING}/balances`,
      "/api/v2/markets",
      "/api/v2/markets/ETHUSD/ticker",
      "/api/v2/markets/ETHUSD/order-book",
      "/api/orders/export.csv",
      "/api/transfers/export.csv",
    ];
    for (const path of reads) {
      const res = await d.as.viewer.call("GET", path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const tokens = d.proxy.requests.filter((r) => r.path === TOKEN_PATH);
    expect(tokens.map((r) => r.scope!.split(" ").sort())).toEqual([[...READ_ONLY].sort()]);
    expect(tokens.map((r) => r.status)).toEqual([200]);
  });

  it.each([
    ["an order", "trader", "POST", `/api/v2/profiles/${TRADING}/orders`, "exchange:write_order"],
    ["a cancel", "trader", "DELETE", `/api/v2/profiles/${TRADING}/orders/${UNKNOWN_ORDER}`, "exchange:write_order"],
    ["a transfer", "ops", "POST", "/api/v2/transfer/internal", "transfer:write_internal_transfer"],
  ] as const)(
    "%s answers 403 naming the missing scope, without calling the service",
    async (what, role, method, path, scope) => {
      const ref = newRef();
      const body = what === "an order" ? smallOrder(ref) : what === "a transfer" ? smallTransfer(ref) : undefined;
      const mark = d.proxy.requests.length;
      const res = await d.as[role].call(method, path, body);
      const p = expectProblem(res, 403);
      expect(p.detail).toMatch(new RegExp(`^The service's credentials lack ${scope}`));
      expect(p.meta).toMatchObject({ missing_scope: scope });
      // Not a ticker read for its valuation, not a token: nothing at all.
      expect(since(mark)).toEqual([]);
      // Neither journaled as if it had been tried, nor created.
      expect(await d.journal(ref)).toEqual([]);
      expect(await d.sandboxOrders(ref)).toEqual([]);
      expect(await d.sandboxTransfers(ref)).toEqual([]);
    },
  );

  it("an approver's approve of a transfer held before the scope went is refused the same way, unsent and unjournaled", async () => {
    const scope = OPERATIONS.createInternalTransfer.scope;
    const ref = newRef("held");
    // Held while the credentials had the scope (SERVICE_SCOPES changed since): written as the hold step writes it.
    const held = await insertApproval(
      d.app.runtime.db,
      { email: "ops@example.com", name: "Ops", role: "ops" },
      {
        kind: "transfer",
        refId: ref,
        profileId: TREASURY,
        request: smallTransfer(ref, { amount: "20000" }),
        valueUsd: "20000",
        rule: DEFAULT_POLICY.approval_rules.find((r) => r.kind === "transfer")!,
        at: new Date(d.app.clock.now()),
      },
    );
    const mark = d.proxy.requests.length;
    const res = await d.as.approver.call("POST", `/api/approvals/${held.id}/approve`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { status, outcome } = res.body.approval;
    expect(status).toBe("APPROVED");
    expect(outcome).toMatchObject({ status: 403, sent: false, body: { status: 403, title: "Scope Missing" } });
    expect(outcome.body.detail).toMatch(new RegExp(`^The service's credentials lack ${scope}`));
    expect(outcome.body.meta).toEqual({ missing_scope: scope });
    expect(since(mark)).toEqual([]);
    expect(await d.journal(ref)).toEqual([]);
    expect(await d.sandboxTransfers(ref)).toEqual([]);
  });
});
