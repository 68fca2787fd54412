import { describe, expect, it } from "vitest";
import { approvalNotice, approvedOrderNotice, orderWords, transferEndNotice } from "@/components/notices/notice-words";
import { orderEndNotice } from "@/components/orders/order-outcome";
import type { Approval } from "@/lib/shared/approval";
import type { Order } from "@/lib/spec/order";
import type { Transfer } from "@/lib/spec/transfer";

const NAMES: Record<string, string> = {
  "p-treasury": "Treasury",
  "p-settlement": "Settlement",
  "p-trading": "Trading",
};
const nickname = (id: string) => NAMES[id] ?? id;

const held: Approval = {
  id: "a1",
  status: "PENDING",
  kind: "transfer",
  request: {
    from_profile_id: "p-treasury",
    to_profile_id: "p-settlement",
    asset: "USD",
    amount: "120",
    ref_id: "t-2",
  },
  profile_id: "p-treasury",
  value_usd: "120",
  rule: { kind: "transfer", threshold_usd: "100", approvals_needed: 1, open_minutes: 120 },
  hold_reason: null,
  requested_by: "ops@example.com",
  requested_name: "Oakley Ops",
  requested_role: "ops",
  created_at: "2026-11-25T14:00:00.000Z",
  expires_at: "2026-11-25T16:00:00.000Z",
  approvals_needed: 1,
  approvals: [],
  decided_at: null,
  decided_by: null,
  reason: null,
  outcome: null,
};

const heldOrder: Approval = {
  ...held,
  kind: "order",
  profile_id: "p-trading",
  request: { market: "BTCUSD", side: "BUY", type: "LIMIT", price: "1000.00", base_amount: "2", ref_id: "o-7" },
};

const decided = (a: Approval, change: Partial<Approval>): Approval => ({
  ...a,
  decided_by: "approver@example.com",
  decided_at: "2026-11-25T14:05:00.000Z",
  ...change,
});

describe("a decision's notice names the request: kind, amount, profiles by nickname, ref_id", () => {
  it("a rejected transfer, with who rejected it and why", () => {
    expect(approvalNotice(decided(held, { status: "REJECTED", reason: "Duplicate of t-1" }), nickname)).toEqual({
      title:
        "Your transfer of 120.00 USD from Treasury to Settlement was rejected by approver@example.com: Duplicate of t-1",
      detail: "ref_id t-2",
      tone: "error",
    });
  });

  it("an approved order, sent; refused at send; refused by the service", () => {
    const approved = (outcome: Approval["outcome"]) => decided(heldOrder, { status: "APPROVED", outcome });
    expect(approvalNotice(approved({ status: 200, body: { id: "o1", status: "SUBMITTED" } }), nickname)).toEqual({
      title: "Your order to buy 2 BTC on BTC/USD from Trading was approved and sent",
      detail: "Approved by approver@example.com · ref_id o-7",
      tone: "success",
    });
    expect(
      approvalNotice(approved({ status: 403, body: { detail: "insufficient USD funds" }, sent: false }), nickname),
    ).toEqual({
      title: "Your order to buy 2 BTC on BTC/USD from Trading was approved, but refused when checked again at send",
      detail: "insufficient USD funds · ref_id o-7",
      tone: "error",
    });
    expect(approvalNotice(approved({ status: 422, body: { detail: "bad tick" } }), nickname)?.title).toBe(
      "Your order to buy 2 BTC on BTC/USD from Trading was approved, but the service refused it",
    );
  });

  it("an expiry; nothing while it waits; a policy change has no ref_id", () => {
    expect(approvalNotice({ ...held, status: "EXPIRED" }, nickname)).toEqual({
      title: "Your transfer of 120.00 USD from Treasury to Settlement expired unapproved",
      detail: "ref_id t-2",
      tone: "warning",
    });
    expect(approvalNotice(held, nickname)).toBeNull();
    const policy: Approval = { ...held, kind: "policy", profile_id: "", request: { before: {}, after: {} } };
    expect(
      approvalNotice(decided(policy, { status: "APPROVED", outcome: { status: 200, body: {} } }), nickname),
    ).toEqual({
      title: "Your policy change was approved and applied",
      detail: "Approved by approver@example.com.",
      tone: "success",
    });
  });

  it("an unknown profile shows as its id rather than as nothing", () => {
    const elsewhere = { ...held, request: { ...held.request, to_profile_id: "p-unknown" } };
    expect(approvalNotice({ ...elsewhere, status: "EXPIRED" }, nickname)?.title).toContain(
      "from Treasury to p-unknown",
    );
  });

  it("the order an approved request placed, once it ends: keyed as the order's end", () => {
    expect(approvedOrderNotice(heldOrder, { id: "0123456789", status: "FILLED" }, nickname)).toEqual({
      key: "order-end:0123456789",
      title: "Your approved order to buy 2 BTC on BTC/USD from Trading filled",
      detail: "Order 01234567 is FILLED · ref_id o-7",
      tone: "success",
    });
    expect(approvedOrderNotice(heldOrder, { id: "0123456789", status: "CANCELLED" }, nickname).title).toBe(
      "Your approved order to buy 2 BTC on BTC/USD from Trading ended CANCELLED",
    );
  });
});

describe("a batch's notices name it: how many transfers, their totals, its ref_id", () => {
  const heldBatch: Approval = {
    ...held,
    kind: "batch",
    profile_id: "",
    value_usd: "18000",
    request: {
      ref_id: "b-7",
      batch_id: "0190-batch",
      rows: 3,
      totals: [{ asset: "USD", amount: "18000", value_usd: "18000" }],
      outgoing: [{ profile_id: "p-treasury", asset: "USD", amount: "18000" }],
      largest: [],
    },
  };

  it("approved: sending started; refused at send: none of it sent, why in the desk's words", () => {
    const approved = (outcome: Approval["outcome"]) => decided(heldBatch, { status: "APPROVED", outcome });
    expect(
      approvalNotice(approved({ status: 201, body: { batch: { status: "SENDING" } }, sent: true }), nickname),
    ).toEqual({
      title: "Your batch of 3 internal transfers (18,000.00 USD) was approved: sending started",
      detail: "Approved by approver@example.com · ref_id b-7",
      tone: "success",
    });
    expect(
      approvalNotice(
        approved({
          status: 403,
          body: {
            title: "Insufficient Funds",
            status: 403,
            detail: "insufficient USD funds",
            meta: { profile_id: "p-treasury", asset: "USD", available: "100", needed: "18000" },
          },
          sent: false,
        }),
        nickname,
      ),
    ).toEqual({
      title:
        "Your batch of 3 internal transfers (18,000.00 USD) was approved, but refused when checked again at send: none of it was sent",
      detail: "Treasury has 100.00 USD available; the batch sends 18,000.00 USD from it · ref_id b-7",
      tone: "error",
    });
  });

  it("rejected and expired as any request", () => {
    expect(approvalNotice(decided(heldBatch, { status: "REJECTED", reason: "Split it" }), nickname)?.title).toBe(
      "Your batch of 3 internal transfers (18,000.00 USD) was rejected by approver@example.com: Split it",
    );
    expect(approvalNotice({ ...heldBatch, status: "EXPIRED" }, nickname)?.title).toBe(
      "Your batch of 3 internal transfers (18,000.00 USD) expired unapproved",
    );
  });
});

describe("an order's words", () => {
  it("side, amount, market and profile; a market buy by what it spends", () => {
    expect(orderWords({ side: "SELL", market: "ETHUSD", base_amount: "0.0154" }, "Trading")).toBe(
      "sell 0.0154 ETH on ETH/USD from Trading",
    );
    // The service's records send an unused amount as "0".
    expect(orderWords({ side: "BUY", market: "BTCUSD", base_amount: "0", quote_amount: "100" }, "Trading")).toBe(
      "buy BTC for 100.00 USD on BTC/USD from Trading",
    );
  });
});

const order: Order = {
  id: "1a2b3c4d-0000",
  profile_id: "p-trading",
  ref_id: "o-9",
  status: "CANCELLED",
  side: "BUY",
  market: "ETHUSD",
  type: "LIMIT",
  base_amount: "0.5",
  price: "100.00",
  quote_amount: "",
  created_at: "2026-11-25T14:00:00.000Z",
  modified_at: "2026-11-25T14:01:00.000Z",
  amount_filled: "0.2",
  volume_weighted_average_price: "100.00",
  time_in_force: "GTC",
};

describe("an order's end names the order", () => {
  it("cancelled, filled, rejected, a GTT expiry: the order's words in the title, its outcome and ref_id below", () => {
    expect(orderEndNotice(order, "Trading")).toEqual({
      key: "order-end:1a2b3c4d-0000",
      title: "Order 1a2b3c4d cancelled: buy 0.5 ETH on ETH/USD from Trading",
      detail: "Cancelled: 0.2 of 0.5 ETH filled at avg 100.00 USD · ref_id o-9",
      tone: "warning",
    });
    expect(orderEndNotice({ ...order, status: "FILLED", amount_filled: "0.5" }, "Trading").title).toBe(
      "Order 1a2b3c4d filled: buy 0.5 ETH on ETH/USD from Trading",
    );
    expect(orderEndNotice({ ...order, status: "REJECTED" }, "Trading").tone).toBe("error");
    const gtt = { ...order, time_in_force: "GTT" as const, expiration_date: "2026-11-25T14:01:00.000Z" };
    expect(orderEndNotice(gtt, "Trading").title).toBe(
      "GTT order 1a2b3c4d expired: buy 0.5 ETH on ETH/USD from Trading",
    );
  });

  it("without a ref_id, the outcome alone", () => {
    expect(orderEndNotice({ ...order, ref_id: undefined }, "Trading").detail).toBe(
      "Cancelled: 0.2 of 0.5 ETH filled at avg 100.00 USD",
    );
  });
});

describe("a transfer's end names the transfer", () => {
  const transfer = {
    id: "9f8e7d6c-0000",
    ref_id: "t-5",
    amount: "100",
    asset: "EUR",
    status: "COMPLETED",
  } as Transfer;
  const names = { from: "Treasury", to: "Settlement" };

  it("completed or failed, amount and profiles, its id and ref_id", () => {
    expect(transferEndNotice(transfer, names)).toEqual({
      title: "Transfer completed: 100.00 EUR from Treasury to Settlement",
      detail: "Transfer 9f8e7d6c · ref_id t-5",
      tone: "success",
    });
    expect(transferEndNotice({ ...transfer, status: "FAILED" }, names)).toMatchObject({
      title: "Transfer failed: 100.00 EUR from Treasury to Settlement",
      tone: "error",
    });
  });
});
