import { describe, expect, it } from "vitest";
import { describeApproval } from "@/lib/shared/describe-approval";
import { approveEffect, approveQuestion, approveVerb, decisionTerms } from "@/components/approvals/decision-terms";
import { decisionTone, decisionWords } from "@/components/approvals/decision-words";
import { parentProgressWords } from "@/lib/shared/parent-approval-words";
import { auditDetailWords } from "@/components/audit/audit-words";
import { approvalNotice } from "@/components/notices/notice-words";
import type { Approval } from "@/lib/shared/approval";
import type { ParentOrder, ParentOrderChild } from "@/lib/shared/parent-order";
import {
  describeParentOrder,
  durationWords,
  parentOrderHref,
  parentOrderPhrase,
} from "@/lib/shared/parent-order-words";

const NAMES: Record<string, string> = { "p-trading": "Trading" };
const nickname = (id: string) => NAMES[id] ?? id;

const request = {
  ref_id: "twap-1",
  profile_id: "p-trading",
  market: "BTCUSD",
  side: "BUY",
  base_amount: "0.2",
  strategy: "TWAP",
  duration_seconds: 60,
  slices: 6,
  limit_price: "61000",
  parent_order_id: "0190-parent",
};

const held: Approval = {
  id: "a1",
  status: "PENDING",
  kind: "parent_order",
  request,
  profile_id: "p-trading",
  value_usd: "12200",
  rule: { kind: "order", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
  hold_reason: null,
  requested_by: "trader@example.com",
  requested_name: "Tatum Trader",
  requested_role: "trader",
  created_at: "2026-11-25T14:00:00.000Z",
  expires_at: "2026-11-25T16:00:00.000Z",
  approvals_needed: 1,
  approvals: [],
  decided_at: null,
  decided_by: null,
  reason: null,
  outcome: null,
};

const approved = (outcome: Approval["outcome"]): Approval => ({
  ...held,
  status: "APPROVED",
  decided_by: "approver@example.com",
  approvals: [{ by: "approver@example.com", role: "approver", at: "2026-11-25T14:01:00.000Z" }],
  outcome,
});

const refused = approved({
  status: 403,
  body: {
    type: "/problems/limit-exceeded",
    title: "Limit Exceeded",
    status: 403,
    detail: "Daily order limit of 100,000.00 USD would be exceeded",
  },
  sent: false,
});

describe("a TWAP parent order in one sentence", () => {
  it("says the ticket's review sentence exactly, the cap as the market prices it", () => {
    expect(
      describeParentOrder({
        market: "BTCUSD",
        side: "BUY",
        base_amount: "2",
        duration_seconds: 1800,
        slices: 30,
        limit_price: "66000",
      }),
    ).toBe("Buy 2 BTC over 30 minutes in 30 slices, never above 66,000.00 USD");
  });

  it("a sell is never below its cap; the profile named by a lookup or by its name", () => {
    const sell = { ...request, side: "SELL", base_amount: "1.5", limit_price: "59000.25" };
    expect(describeParentOrder(sell, nickname)).toBe(
      "Sell 1.5 BTC over 1 minute in 6 slices, never below 59,000.25 USD, from Trading",
    );
    expect(describeParentOrder(sell, "Trading")).toBe(describeParentOrder(sell, nickname));
    expect(parentOrderPhrase(sell, nickname)).toBe(
      "sell 1.5 BTC over 1 minute in 6 slices, never below 59,000.25 USD, from Trading",
    );
  });

  it("keeps a cap finer than the cent on a market whose tick is finer", () => {
    expect(describeParentOrder({ ...request, market: "MATICUSD", base_amount: "12000", limit_price: "0.5123" })).toBe(
      "Buy 12,000 MATIC over 1 minute in 6 slices, never above 0.5123 USD",
    );
  });

  it("says a duration in seconds, minutes and hours", () => {
    expect(durationWords(45)).toBe("45 seconds");
    expect(durationWords(1)).toBe("1 second");
    expect(durationWords(60)).toBe("1 minute");
    expect(durationWords(90)).toBe("1 minute 30 seconds");
    expect(durationWords(1800)).toBe("30 minutes");
    expect(durationWords(3600)).toBe("1 hour");
    expect(durationWords(5400)).toBe("1 hour 30 minutes");
    expect(durationWords(3661)).toBe("1 hour 1 minute 1 second");
    expect(durationWords(86_400)).toBe("24 hours");
    expect(describeParentOrder({ ...request, duration_seconds: 7200, slices: 120 })).toBe(
      "Buy 0.2 BTC over 2 hours in 120 slices, never above 61,000.00 USD",
    );
    expect(describeParentOrder({ ...request, duration_seconds: 75, slices: 5 })).toBe(
      "Buy 0.2 BTC over 1 minute 15 seconds in 5 slices, never above 61,000.00 USD",
    );
  });

  it("links to the parent's own page", () => {
    expect(parentOrderHref("0190-parent")).toBe("/parent-orders/0190-parent");
  });
});

describe("a held parent order on the approvals card", () => {
  it("describes it as a TWAP, from its profile by nickname", () => {
    expect(describeApproval(held, nickname)).toBe(
      "TWAP: Buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading.",
    );
  });

  it("restates what approving starts, at the button and in the confirm question", () => {
    expect(decisionTerms(held, nickname)).toBe(
      "a TWAP order to buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading",
    );
    expect(approveVerb(held)).toBe("Approve and start");
    expect(approveQuestion(held, nickname)).toBe(
      "Approve and start a TWAP order to buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading?",
    );
    expect(approveEffect(held, nickname)).toBe(
      "Approving starts a TWAP order to buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading: its children are sent one slice at a time, none past the cap.",
    );
    const twoNeeded = { ...held, approvals_needed: 2 };
    expect(approveVerb(twoNeeded)).toBe("Approve");
    expect(approveEffect(twoNeeded, nickname)).toMatch(/; the last one starts it\.$/);
  });

  it("says an approved parent started working, and a refusal at send that no child order was sent", () => {
    expect(decisionWords(approved(null))).toBe("Approved; starting the parent order…");
    const started = approved({ status: 201, body: { parent_order: { status: "WORKING" } }, sent: true });
    expect(decisionWords(started)).toBe("Approved; the parent order started working: 6 slices over 1 minute");
    expect(decisionTone(started)).toBe("success");
    expect(decisionWords(refused)).toBe(
      "Approved, not started: checked again at send, it was refused, so no child order was sent: Daily order limit of 100,000.00 USD would be exceeded",
    );
    expect(decisionTone(refused)).toBe("error");
  });

  it("says where the parent stands: nothing before approval, its fills and slices once working", () => {
    const child = (n: number, sent: boolean): ParentOrderChild => ({
      n,
      ref_id: `twap-1-${n}`,
      order_id: sent ? `o-${n}` : null,
      scheduled_at: "2026-11-25T14:01:00.000Z",
      sent_at: sent ? "2026-11-25T14:01:00.000Z" : null,
      base_amount: sent ? "0.03333333" : null,
      price: sent ? "60010" : null,
      status: sent ? "FILLED" : "SCHEDULED",
      amount_filled: sent ? "0.03333333" : "0",
      average_price: sent ? "60010" : "",
    });
    const parent = (status: ParentOrder["status"], filled: string, sent: number) => ({
      status,
      filled_base: filled,
      children: Array.from({ length: 6 }, (_, i) => child(i + 1, i < sent)),
    });
    const started = approved({ status: 201, body: {}, sent: true });
    expect(parentProgressWords(held, undefined)).toBe("No child order is sent before it is approved.");
    expect(parentProgressWords(refused, undefined)).toBe("No child order was sent.");
    expect(parentProgressWords({ ...held, status: "REJECTED" }, undefined)).toBe("No child order was sent.");
    expect(parentProgressWords(started, undefined)).toBeUndefined();
    expect(parentProgressWords(started, parent("WORKING", "0.09999999", 3))).toBe(
      "Working: 0.09999999 BTC of 0.2 BTC filled, 3 of 6 slices sent.",
    );
    expect(parentProgressWords(started, parent("COMPLETED", "0.2", 6))).toBe("Completed: 0.2 BTC of 0.2 BTC filled.");
    expect(parentProgressWords(started, parent("CANCELLED", "0.06666666", 2))).toBe(
      "Cancelled: 0.06666666 BTC of 0.2 BTC filled, 2 of 6 slices sent.",
    );
  });
});

describe("a parent order's notices to its requester", () => {
  it("names the parent, and says it started working once approved", () => {
    const notice = approvalNotice(approved({ status: 201, body: {}, sent: true }), nickname);
    expect(notice).toEqual({
      title:
        "Your TWAP order to buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading was approved: it started working",
      detail: "Approved by approver@example.com · 6 slices over 1 minute · ref_id twap-1",
      tone: "success",
    });
  });

  it("says a refusal at send sent no child order, and why", () => {
    expect(approvalNotice(refused, nickname)).toEqual({
      title:
        "Your TWAP order to buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading was approved, but refused when checked again at send: no child order was sent",
      detail: "Daily order limit of 100,000.00 USD would be exceeded · ref_id twap-1",
      tone: "error",
    });
  });

  it("names a rejection and an expiry like any request's", () => {
    const rejected = { ...held, status: "REJECTED" as const, decided_by: "approver@example.com", reason: "Too big" };
    expect(approvalNotice(rejected, nickname)?.title).toBe(
      "Your TWAP order to buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading was rejected by approver@example.com: Too big",
    );
    expect(approvalNotice({ ...held, status: "EXPIRED" }, nickname)?.title).toMatch(/^Your TWAP order to .* expired/);
  });
});

describe("a parent order in the audit trail", () => {
  it("says what its request asked for, as a TWAP", () => {
    const words = auditDetailWords(
      { parent_order_id: "0190-parent", request, value_usd: "12200", approval_id: "a1" },
      nickname,
    );
    expect(words).toEqual([
      "TWAP: Buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading",
      "Worth about 12,200.00 USD",
      "Parent order id: 0190-parent",
      "Approval id: a1",
    ]);
  });

  it("names its kind on an approval's events, and a pause and a cancel in words", () => {
    expect(auditDetailWords({ kind: "parent_order", ref_id: "twap-1" })).toEqual([
      "Kind: TWAP parent order",
      "Ref id: twap-1",
    ]);
    expect(auditDetailWords({ parent_order_id: "0190-parent", paused_ms: 95_000 })).toEqual([
      "Parent order id: 0190-parent",
      "Paused for: 1 minute 35 seconds",
    ]);
    expect(auditDetailWords({ parent_order_id: "0190-parent", skipped: 3, was: "WORKING" })).toEqual([
      "Parent order id: 0190-parent",
      "Slices not sent: 3",
      "Status before: WORKING",
    ]);
    // A batch's own "skipped" keeps its name.
    expect(auditDetailWords({ batch_id: "0190-batch", skipped: 2 })).toEqual(["Batch id: 0190-batch", "Skipped: 2"]);
  });
});
