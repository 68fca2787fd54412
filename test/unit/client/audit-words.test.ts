import { describe, expect, it } from "vitest";
import { auditDetailWords } from "@/components/audit/audit-words";
import { DEFAULT_POLICY } from "@/lib/shared/policy";

const names: Record<string, string> = {
  "0b5e-treasury": "Treasury",
  "9c1d-settlement": "Settlement",
};
const nickname = (id: string) => names[id] ?? id;

describe("the audit trail's details in words", () => {
  it("says what an approval request asked for: profile names, amounts formatted", () => {
    const words = auditDetailWords(
      {
        kind: "transfer",
        ref_id: "tr-1",
        request: { from_profile_id: "0b5e-treasury", to_profile_id: "9c1d-settlement", asset: "USD", amount: "20000" },
        value_usd: "20000.00000000",
        rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
      },
      nickname,
    );
    expect(words).toEqual([
      "Move 20,000.00 USD from Treasury to Settlement",
      "Worth about 20,000.00 USD",
      "Rule: transfers from 10,000.00 USD, 1 approval",
      "Ref id: tr-1",
    ]);
    expect(words.join("\n")).not.toMatch(/0b5e|value_usd|20000\.0000/);
  });

  it("writes an order on its market, base/quote", () => {
    const [line] = auditDetailWords({
      kind: "order",
      request: { market: "BTCUSD", side: "BUY", type: "LIMIT", base_amount: "0.5", price: "65000" },
    });
    expect(line).toBe("Buy 0.5 BTC at 65,000.00 on BTC/USD (limit)");
  });

  it("says an order settling into another profile was weighed as a transfer too, naming the profile", () => {
    const words = auditDetailWords(
      {
        kind: "order",
        request: { market: "BTCUSD", side: "SELL", type: "LIMIT", base_amount: "0.5", price: "65000" },
        value_usd: "32500.00000000",
        weighed_as_transfer: { recipient_profile_id: "9c1d-settlement" },
        rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
      },
      nickname,
    );
    expect(words).toEqual([
      "Sell 0.5 BTC at 65,000.00 on BTC/USD (limit)",
      "Weighed as a transfer too: it settles into Settlement",
      "Worth about 32,500.00 USD",
      "Rule: transfers from 10,000.00 USD, 1 approval",
    ]);
  });

  it("shows a policy change as only what changed, before → after", () => {
    const after = { ...DEFAULT_POLICY, limits: { ...DEFAULT_POLICY.limits, price_guard_percent: "7.5" } };
    expect(auditDetailWords({ before: DEFAULT_POLICY, after, approval_id: "a-1" })).toEqual([
      "Price guard: 5% → 7.5%",
      "Approval id: a-1",
    ]);
  });

  it("says what a held batch asked for: how many transfers, the totals, who sends, by name", () => {
    const words = auditDetailWords(
      {
        kind: "batch",
        ref_id: "b-7",
        request: {
          ref_id: "b-7",
          batch_id: "0190-batch",
          rows: 3,
          totals: [{ asset: "USD", amount: "18000", value_usd: "18000" }],
          outgoing: [
            { profile_id: "0b5e-treasury", asset: "USD", amount: "12000" },
            { profile_id: "9c1d-settlement", asset: "USD", amount: "6000" },
          ],
          largest: [],
        },
        value_usd: "18000",
        rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
      },
      nickname,
    );
    expect(words).toEqual([
      "Batch of 3 internal transfers: 18,000.00 USD from Treasury and Settlement",
      "Worth about 18,000.00 USD",
      "Rule: transfers from 10,000.00 USD, 1 approval",
      "Ref id: b-7",
    ]);
  });

  it("a batch's events: its totals formatted, a row's problem as its title and detail, profiles named", () => {
    expect(
      auditDetailWords({
        batch_id: "0190-batch",
        rows: 2,
        value_usd: "50500",
        totals: [
          { asset: "USD", amount: "18000", value_usd: "18000" },
          { asset: "BTC", amount: "0.5", value_usd: "32500" },
        ],
        approval_id: "a-9",
      }),
    ).toEqual([
      "Worth about 50,500.00 USD",
      "Totals: 18,000.00 USD, 0.5 BTC (about 32,500.00 USD)",
      "Batch id: 0190-batch",
      "Rows: 2",
      "Approval id: a-9",
    ]);
    const id = "4406aa9c-0000-4000-8000-000000000001";
    expect(
      auditDetailWords(
        {
          batch_id: "0190-batch",
          batch_ref_id: "b-7",
          row: 2,
          problem: {
            type: "/problems/insufficient-funds",
            title: "Insufficient Funds",
            status: 403,
            detail: `insufficient USD funds in profile ${id}`,
          },
        },
        (p) => (p === id ? "Operations reserve" : p),
      ),
    ).toEqual([
      "Problem: Insufficient Funds: insufficient USD funds in Operations reserve",
      "Batch id: 0190-batch",
      "Batch ref id: b-7",
      "Row: 2",
    ]);
  });

  it("never throws on a detail of any shape", () => {
    for (const detail of [{}, { request: null }, { before: 1, after: "x" }, { rule: [] }, { nested: { a: [1, null] } }])
      expect(() => auditDetailWords(detail as Record<string, unknown>)).not.toThrow();
  });
});
