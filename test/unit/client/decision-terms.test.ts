import { describe, expect, it } from "vitest";
import {
  approveEffect,
  approveQuestion,
  approveVerb,
  decisionTerms,
  needsConfirming,
} from "@/components/approvals/decision-terms";
import type { Approval } from "@/lib/shared/approval";

const NAMES: Record<string, string> = {
  "p-treasury": "Treasury",
  "p-reserve": "Operations reserve",
  "p-trading": "Trading",
};
const nickname = (id: string) => NAMES[id] ?? id;

const transfer: Approval = {
  id: "a1",
  status: "PENDING",
  kind: "transfer",
  request: {
    from_profile_id: "p-treasury",
    to_profile_id: "p-reserve",
    asset: "USD",
    amount: "45000",
    ref_id: "r1",
  },
  profile_id: "p-treasury",
  value_usd: "45000",
  rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
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

const order = (request: Record<string, unknown>): Approval => ({
  ...transfer,
  kind: "order",
  profile_id: "p-trading",
  value_usd: "130000",
  rule: { kind: "order", threshold_usd: "100000", approvals_needed: 1, open_minutes: 120 },
  request: { market: "BTCUSD", ref_id: "r2", ...request },
});

describe("what an approver decides, restated at the button", () => {
  it("a transfer: the amount as the app formats it, from and to by nickname", () => {
    expect(decisionTerms(transfer, nickname)).toBe("45,000.00 USD from Treasury to Operations reserve");
    expect(approveQuestion(transfer, nickname)).toBe(
      "Approve and send 45,000.00 USD from Treasury to Operations reserve?",
    );
    expect(approveEffect(transfer, nickname)).toBe(
      "Approving sends 45,000.00 USD from Treasury to Operations reserve.",
    );
  });

  it("an order: side, amount, market and profile by nickname; a market buy by what it spends", () => {
    const limit = order({ side: "SELL", type: "LIMIT", price: "65000.00", base_amount: "2.5" });
    expect(decisionTerms(limit, nickname)).toBe("an order to sell 2.5 BTC on BTC/USD from Trading");
    expect(approveQuestion(limit, nickname)).toBe("Approve and send an order to sell 2.5 BTC on BTC/USD from Trading?");
    const marketBuy = order({ side: "BUY", type: "MARKET", quote_amount: "150000" });
    expect(decisionTerms(marketBuy, nickname)).toBe("an order to buy BTC for 150,000.00 USD on BTC/USD from Trading");
  });

  it("one of several approvals: it approves, and does not send", () => {
    const twoNeeded = { ...transfer, approvals_needed: 2 };
    expect(approveVerb(twoNeeded)).toBe("Approve");
    expect(approveQuestion(twoNeeded, nickname)).toBe("Approve 45,000.00 USD from Treasury to Operations reserve?");
    expect(approveEffect(twoNeeded, nickname)).toBe(
      "Approving adds one of the 2 approvals still needed for 45,000.00 USD from Treasury to Operations reserve; the last one sends it.",
    );
    const lastOfTwo = { ...twoNeeded, approvals: [{ by: "a@example.com", role: "approver", at: transfer.created_at }] };
    expect(approveVerb(lastOfTwo)).toBe("Approve and send");
  });

  it("a policy change is applied, not sent", () => {
    const policy: Approval = {
      ...transfer,
      kind: "policy",
      profile_id: "",
      value_usd: null,
      rule: { kind: "policy", approvals_needed: 1, open_minutes: 1440 },
    };
    expect(approveQuestion(policy, nickname)).toBe("Approve and apply this change to the desk's policy?");
    expect(approveEffect(policy, nickname)).toBe("Approving applies this change to the desk's policy.");
  });
});

describe("a batch restated at the button: how many transfers, their totals, who sends them", () => {
  const batch: Approval = {
    ...transfer,
    kind: "batch",
    profile_id: "",
    value_usd: "18000",
    request: {
      ref_id: "b-7",
      batch_id: "0190-batch",
      rows: 3,
      totals: [{ asset: "USD", amount: "18000", value_usd: "18000" }],
      outgoing: [
        { profile_id: "p-treasury", asset: "USD", amount: "12000" },
        { profile_id: "p-trading", asset: "USD", amount: "6000" },
      ],
      largest: [],
    },
  };

  it("sends N transfers totalling …, from the senders by nickname, naming the batch", () => {
    expect(decisionTerms(batch, nickname)).toBe(
      "3 internal transfers totalling 18,000.00 USD from Treasury and Trading (batch b-7)",
    );
    expect(approveVerb(batch)).toBe("Approve and send");
    expect(approveQuestion(batch, nickname)).toBe(
      "Approve and send 3 internal transfers totalling 18,000.00 USD from Treasury and Trading (batch b-7)?",
    );
    expect(approveEffect(batch, nickname)).toBe(
      "Approving sends 3 internal transfers totalling 18,000.00 USD from Treasury and Trading (batch b-7).",
    );
  });

  it("in several assets, with their worth in USD; one of several approvals sends them with the last", () => {
    const mixed: Approval = {
      ...batch,
      value_usd: "50500",
      approvals_needed: 2,
      request: {
        ...batch.request,
        totals: [
          { asset: "USD", amount: "18000", value_usd: "18000" },
          { asset: "BTC", amount: "0.5", value_usd: "32500" },
        ],
      },
    };
    expect(approveEffect(mixed, nickname)).toBe(
      "Approving adds one of the 2 approvals still needed for 3 internal transfers totalling 18,000.00 USD and 0.5 BTC, worth about 50,500.00 USD, from Treasury and Trading (batch b-7); the last one sends them.",
    );
  });

  it("asks to confirm at the transfer rule's threshold, and when an asset has no USD price", () => {
    expect(needsConfirming(batch)).toBe(true);
    expect(needsConfirming({ ...batch, value_usd: null })).toBe(true);
    expect(needsConfirming({ ...batch, value_usd: "4000" })).toBe(false);
  });
});

describe("when approving asks to confirm first", () => {
  it("at the rule's threshold and past it, never under it", () => {
    expect(needsConfirming({ ...transfer, value_usd: "10000" })).toBe(true);
    expect(needsConfirming({ ...transfer, value_usd: "45000" })).toBe(true);
    // Held only because the requester's 24 h total passed the threshold.
    expect(needsConfirming({ ...transfer, value_usd: "9999.99" })).toBe(false);
  });

  it("when no market prices it, and for a policy change", () => {
    expect(needsConfirming({ ...transfer, value_usd: null })).toBe(true);
    expect(
      needsConfirming({ ...transfer, kind: "policy", rule: { kind: "policy", approvals_needed: 1, open_minutes: 60 } }),
    ).toBe(true);
  });
});
