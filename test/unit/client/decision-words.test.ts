import { describe, expect, it } from "vitest";
import { decisionTone, decisionWords, distanceWords, ruleWords } from "@/components/approvals/decision-words";
import type { Approval } from "@/lib/shared/approval";

const base: Approval = {
  id: "a1",
  status: "PENDING",
  kind: "order",
  request: {},
  profile_id: "p",
  value_usd: "150000",
  rule: { kind: "order", threshold_usd: "100000", approvals_needed: 1, open_minutes: 120 },
  hold_reason: null,
  requested_by: "trader@example.com",
  requested_name: "Trader",
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
const approved = (outcome: Approval["outcome"], kind: Approval["kind"] = "order"): Approval => ({
  ...base,
  kind,
  status: "APPROVED",
  decided_by: "approver@example.com",
  approvals: [{ by: "approver@example.com", role: "approver", at: "2026-11-25T14:01:00.000Z" }],
  outcome,
});

describe("a decision in the desk's words", () => {
  it("says what an approval sent, in the record's own status, never the HTTP exchange", () => {
    const sent = approved({ status: 200, body: { id: "412974fb-aaaa", status: "SUBMITTED" } });
    expect(decisionWords(sent)).toBe("Approved and sent: order SUBMITTED");
    expect(decisionTone(sent)).toBe("success");
    expect(decisionWords(approved({ status: 200, body: { status: "PENDING" } }, "transfer"))).toBe(
      "Approved and sent: transfer PENDING",
    );
  });

  it("says a refusal at send and the service's refusal apart, both red", () => {
    const notSent = approved({ status: 403, body: { detail: "insufficient USD funds" }, sent: false });
    expect(decisionWords(notSent)).toBe(
      "Approved, not sent: checked again at send, it was refused: insufficient USD funds",
    );
    expect(decisionTone(notSent)).toBe("error");
    expect(decisionWords(approved({ status: 422, body: { detail: "bad tick" } }))).toBe(
      "Approved and sent; the service refused it: bad tick",
    );
  });

  it("names who rejected and why, a withdrawal, an expiry, and an approval still waiting for more", () => {
    expect(
      decisionWords({ ...base, status: "REJECTED", decided_by: "approver@example.com", reason: "Over budget" }),
    ).toBe("Rejected by approver@example.com: Over budget");
    expect(decisionWords({ ...base, status: "WITHDRAWN", decided_by: "trader@example.com" })).toBe(
      "Withdrawn by trader@example.com: never sent",
    );
    expect(decisionWords({ ...base, status: "EXPIRED" })).toBe("Expired before anyone decided it: never sent");
    expect(
      decisionWords({
        ...base,
        approvals_needed: 2,
        approvals: [{ by: "approver@example.com", role: "approver", at: "2026-11-25T14:01:00.000Z" }],
      }),
    ).toBe("Approved by approver@example.com; waiting for one more approval");
  });
});

describe("a batch's decision in words", () => {
  const batch = (outcome: Approval["outcome"]): Approval => ({
    ...approved(outcome, "batch"),
    profile_id: "",
    rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
    request: { ref_id: "b-7", batch_id: "0190-batch", rows: 3, totals: [], outgoing: [], largest: [] },
  });
  const names: Record<string, string> = { "4406aa9c-0000-4000-8000-000000000001": "Operations reserve" };
  const nickname = (id: string) => names[id] ?? id;

  it("approved: its sending started, the rows going one by one, never 'sent: batch accepted'", () => {
    const sending = batch({ status: 201, body: { batch: { id: "0190-batch", status: "SENDING" } }, sent: true });
    expect(decisionWords(sending)).toBe("Approved; sending started: its 3 internal transfers go one by one");
    expect(decisionTone(sending)).toBe("success");
    expect(decisionWords(batch(null))).toBe("Approved; starting to send the batch…");
  });

  it("refused when checked again at send: none sent, the problem's detail in the desk's words, red", () => {
    const refused = batch({
      status: 403,
      body: {
        type: "/problems/insufficient-funds",
        title: "Insufficient Funds",
        status: 403,
        detail:
          "insufficient USD funds in profile 4406aa9c-0000-4000-8000-000000000001: the batch sends 12000 from it, 5000 available",
        meta: {
          profile_id: "4406aa9c-0000-4000-8000-000000000001",
          asset: "USD",
          available: "5000",
          needed: "12000",
        },
      },
      sent: false,
    });
    expect(decisionWords(refused, nickname)).toBe(
      "Approved, not sent: checked again at send, the batch was refused: Operations reserve has 5,000.00 USD available; the batch sends 12,000.00 USD from it",
    );
    expect(decisionTone(refused)).toBe("error");
    const limit = batch({
      status: 403,
      body: { title: "Forbidden", status: 403, detail: "You may send at most 1,000,000.00 USD of transfers a day" },
      sent: false,
    });
    expect(decisionWords(limit)).toBe(
      "Approved, not sent: checked again at send, the batch was refused: You may send at most 1,000,000.00 USD of transfers a day",
    );
  });

  it("a single transfer's refusal names its profiles too, when the card gives the names", () => {
    const notSent = approved(
      {
        status: 403,
        body: { detail: "insufficient USD funds in profile 4406aa9c-0000-4000-8000-000000000001" },
        sent: false,
      },
      "transfer",
    );
    expect(decisionWords(notSent, nickname)).toBe(
      "Approved, not sent: checked again at send, it was refused: insufficient USD funds in Operations reserve",
    );
  });
});

describe("a price's distance from the mid", () => {
  it("in percent to two places, below or above, with grouping", () => {
    expect(distanceWords("1000", "65000")).toBe("98.46% below the mid");
    expect(distanceWords("71500", "65000")).toBe("10.00% above the mid");
    expect(distanceWords("65000", "65000")).toBe("at the mid");
    expect(distanceWords("2000000", "100")).toBe("1,999,900.00% above the mid");
  });
});

describe("why it waits, in the reader's words", () => {
  const rolling: Approval = {
    ...base,
    kind: "transfer",
    value_usd: "4000",
    rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
    hold_reason:
      "With this one, the transfers you sent without approval in the last 24 h come to 12000.00 USD, past the 10000 USD rule",
    requested_by: "ops@example.com",
    requested_name: "Oakley Ops",
  };

  it("names the requester for anyone else, where the reason was written to the requester", () => {
    expect(ruleWords(rolling, false)).toBe(
      "the rule for transfers from 10,000.00 USD: With this one, the transfers Oakley Ops sent without approval in the last 24 h come to 12000.00 USD, past the 10000 USD rule",
    );
  });

  it("keeps 'you' for the requester reading their own request", () => {
    expect(ruleWords(rolling, true)).toContain("the transfers you sent without approval");
  });

  it("names the rule's own kind: an order settling into another profile held by a transfer rule", () => {
    const elsewhere: Approval = {
      ...base,
      value_usd: "32500",
      rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
      hold_reason:
        "It settles into another profile, so it moves money as a transfer does and is weighed as one too; the transfer rule holds it",
    };
    expect(ruleWords(elsewhere, true)).toBe(
      "the rule for transfers from 10,000.00 USD: It settles into another profile, so it moves money as a transfer does and is weighed as one too; the transfer rule holds it",
    );
  });

  it("says the rule alone when it alone holds the request, and a policy change's own rule", () => {
    expect(ruleWords(base, false)).toBe("the rule for orders from 100,000.00 USD");
    expect(
      ruleWords({ ...base, kind: "policy", rule: { kind: "policy", approvals_needed: 1, open_minutes: 1440 } }, false),
    ).toBe("a change that loosens the controls, by an approver or another admin");
  });
});
