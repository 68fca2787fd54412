import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileId } from "@/lib/sandbox/seed";
import {
  expectProblem,
  inProcessDashboard,
  quote,
  newRef,
  SETTLEMENT,
  TRADING,
  TREASURY,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * The review's dry run (issue 26): what the desk's controls would do with a create sent now,
 * told before anything is sent, and in agreement with what the create then meets. A preview
 * writes nothing: no journal entry, no approval, no audit entry, nothing at the service.
 */

const TRANSFERS = "/api/v2/transfer/internal";
const RESERVE = profileId("operations-reserve");

const transfer = (amount: string, extra: Record<string, unknown> = {}) => {
  const ref = newRef("t");
  return {
    from_profile_id: TREASURY,
    to_profile_id: SETTLEMENT,
    asset: "USD",
    amount,
    ref_id: ref,
    metadata: { test: ref.slice(0, 100) },
    ...extra,
  };
};
const order = (extra: Record<string, unknown>) => {
  const ref = newRef("o");
  return { market: "BTCUSD", side: "BUY", ref_id: ref, metadata: { test: ref.slice(0, 100) }, ...extra };
};

let d: InProcessDashboard;
beforeAll(async () => {
  // A runtime of its own: its people's rolling totals are this file's alone.
  d = await inProcessDashboard();
  // BTCUSD at 64,000 / 66,000: a mid of 65,000.
  await quote(d, "BTCUSD", "64000.00", "66000.00");
});
afterAll(() => d?.dispose());

const previewTransfer = (body: unknown) => d.as.ops.call("POST", "/api/transfers/preview", body);
const previewOrder = (request: unknown) =>
  d.as.trader.call("POST", "/api/orders/preview", { profile_id: TRADING, request });

async function auditCount(): Promise<number> {
  return (await d.as.admin.call("GET", "/api/audit?limit=200")).body.items.length;
}

describe("the dry run of a create", () => {
  it("tells a small transfer will be sent, and writes and sends nothing", async () => {
    const body = transfer("120");
    const before = await auditCount();
    const res = await previewTransfer(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ outcome: "send", kind: "transfer", price_guard: null });
    expect(res.body.value_usd).toMatch(/^120(\.0+)?$/);
    expect(await d.journal(body.ref_id)).toEqual([]);
    expect(await d.sandboxTransfers(body.ref_id)).toEqual([]);
    expect(await auditCount()).toBe(before);
    expect((await d.as.ops.call("GET", "/api/approvals?status=PENDING")).body.items).toEqual([]);
  });

  it("tells a small transfer will be held once the rolling total passes the rule, and the create agrees", async () => {
    // 9,900 USD sent without approval: 120 USD more comes to 10,020, past the 10,000 USD rule.
    expect((await d.as.ops.call("POST", TRANSFERS, transfer("9900"))).status).toBe(200);
    const body = transfer("120");
    const asked = d.app.clock.now();
    const res = await previewTransfer(body);
    const answered = d.app.clock.now();
    expect(res.body).toMatchObject({
      outcome: "hold",
      hold: {
        rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
        rolling_total_usd: expect.stringMatching(/^10020(\.0+)?$/),
        approvers: ["approver", "admin"],
        price_decided_at_approval: false,
      },
    });
    expect(res.body.hold.reason).toContain("come to 10,020.00 USD, past the 10,000.00 USD rule");
    // Held now, it would expire 120 minutes from now on the runtime's clock.
    const opensFor = Date.parse(res.body.hold.expires_at) - 120 * 60_000;
    expect(opensFor).toBeGreaterThanOrEqual(asked);
    expect(opensFor).toBeLessThanOrEqual(answered);
    const created = await d.as.ops.call("POST", TRANSFERS, body);
    expect(created.status).toBe(202);
  });

  it("refuses what the create would refuse: a shortfall, with the profile and figures", async () => {
    const res = await d.as.admin.call(
      "POST",
      "/api/transfers/preview",
      transfer("3", { from_profile_id: RESERVE, asset: "BTC" }),
    );
    expect(res.body).toMatchObject({
      outcome: "refuse",
      problem: { status: 403, meta: { profile_id: RESERVE, asset: "BTC", available: "2", needed: "3" } },
    });
  });

  it("refuses an order past the trader's largest order, naming the limit", async () => {
    const res = await previewOrder(order({ type: "LIMIT", price: "65000.00", base_amount: "20" }));
    expect(res.body).toMatchObject({
      outcome: "refuse",
      problem: { status: 403, meta: { rule: "max_order_notional_usd", role: "trader", limit: "1000000" } },
    });
  });

  it("says a market order held for approval takes its price when approved", async () => {
    // 2 BTC at a mid of 65,000 is 130,000 USD: past the 100,000 USD order rule.
    const res = await previewOrder(order({ type: "MARKET", side: "SELL", base_amount: "2" }));
    expect(res.body).toMatchObject({ outcome: "hold", hold: { price_decided_at_approval: true } });
  });

  it("says when the price guard will ask, and what follows it", async () => {
    // A buy limited at 90,000 takes at once against the 66,000 ask: the fill stays within 5%, no guard.
    const within = await previewOrder(order({ type: "LIMIT", price: "66000.00", base_amount: "0.001" }));
    expect(within.body).toMatchObject({ outcome: "send", price_guard: null });
    // A sell limited at 50,000 would rest far under the mid: taken at once, 23% from it.
    const past = await previewOrder(order({ type: "LIMIT", side: "SELL", price: "50000.00", base_amount: "0.001" }));
    expect(past.body.outcome).toBe("send");
    expect(past.body.price_guard).toMatchObject({ market: "BTCUSD", limit_percent: "5" });
  });

  it("answers a broken request with a 400 naming the field, and a missing profile too", async () => {
    const broken = expectProblem(await previewTransfer({ ...transfer("1"), amount: "-5" }), 400);
    expect(JSON.stringify(broken.meta)).toContain("amount");
    const noProfile = expectProblem(
      await d.as.trader.call("POST", "/api/orders/preview", { request: order({ type: "MARKET", base_amount: "1" }) }),
      400,
    );
    expect(JSON.stringify(noProfile.meta)).toContain("profile_id");
  });
});
