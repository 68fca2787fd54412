import { describe, expect, it } from "vitest";
import { APPROVAL_RULE_WORDS, NO_RULE_WORDS, rollingExample } from "@/components/policies/approval-rule-words";
import { requestedBy, waitingPolicyChanges } from "@/components/policies/waiting-change-words";
import type { Approval } from "@/lib/shared/approval";
import { formatUsd } from "@/lib/shared/format";
import { DEFAULT_POLICY, type ApprovalRule, type Policy } from "@/lib/shared/policy";
import { askedAgainst, changeWords, proposalChanges } from "@/lib/shared/policy-changes";

const rule = (kind: ApprovalRule["kind"], threshold_usd: string): ApprovalRule => ({
  kind,
  threshold_usd,
  approvals_needed: 1,
  open_minutes: 120,
});

describe("the approval rule in the Policies page's words", () => {
  it("says the threshold is weighed against the rolling 24 h total of what was sent without approval", () => {
    const words = APPROVAL_RULE_WORDS.join(" ");
    expect(words).toContain("sent of that kind without approval in the last 24 hours, this one included");
    expect(words).toContain("the rule of the highest threshold reached applies");
    expect(words).toContain("What is approved does not count toward that total, nor what waits for approval");
    expect(words).toContain("no market prices in USD always waits for approval");
    expect(NO_RULE_WORDS).toMatch(/^No rule: only .* no market prices in USD wait for approval/);
  });

  it.each<[string, ApprovalRule[], string | undefined]>([
    [
      "the default transfer rule",
      DEFAULT_POLICY.approval_rules,
      "For example, under the transfer rule in force, from 10,000.00 USD, a person who sends two transfers of 6,000.00 USD within 24 hours has the first sent and the second held: together they come to 12,000.00 USD.",
    ],
    [
      "the lowest of tiered transfer rules",
      [rule("transfer", "1000000"), rule("transfer", "2500.50"), rule("order", "10")],
      "For example, under the transfer rule in force, from 2,500.50 USD, a person who sends two transfers of 1,500.30 USD within 24 hours has the first sent and the second held: together they come to 3,000.60 USD.",
    ],
    [
      "orders, without a transfer rule",
      [rule("order", "100000")],
      "For example, under the order rule in force, from 100,000.00 USD, a person who sends two orders of 60,000.00 USD within 24 hours has the first sent and the second held: together they come to 120,000.00 USD.",
    ],
    ["no rule", [], undefined],
    // Three fifths of 0.03 is 0.01 in cents: two of them stay under the rule, no example.
    ["a threshold too small for cents", [rule("transfer", "0.03")], undefined],
  ])("works the rolling total through at %s", (_, rules, expected) => {
    expect(rollingExample(rules, formatUsd)).toBe(expected);
  });
});

const approval = (over: Partial<Approval>): Approval => ({
  id: "a1",
  status: "PENDING",
  kind: "policy",
  request: { before: DEFAULT_POLICY, after: DEFAULT_POLICY },
  profile_id: "",
  value_usd: null,
  rule: { kind: "policy", approvals_needed: 1, open_minutes: 1440 },
  hold_reason: null,
  requested_by: "admin@example.com",
  requested_name: "Avery Admin",
  requested_role: "admin",
  created_at: "2026-11-25T14:00:00.000Z",
  expires_at: "2026-11-26T14:00:00.000Z",
  approvals_needed: 1,
  approvals: [],
  decided_at: null,
  decided_by: null,
  reason: null,
  outcome: null,
  ...over,
});

describe("a policy change waiting for approval", () => {
  it("is a pending approval of kind policy, listed in the order asked", () => {
    const list = [
      approval({ id: "later", created_at: "2026-11-25T15:00:00.000Z" }),
      approval({ id: "transfer", kind: "transfer" }),
      approval({ id: "decided", status: "REJECTED" }),
      approval({ id: "earlier" }),
    ];
    expect(waitingPolicyChanges(list).map((a) => a.id)).toEqual(["earlier", "later"]);
    expect(requestedBy(list[0]!)).toBe("Requested by Avery Admin (admin@example.com)");
  });

  const raised: Policy = {
    ...DEFAULT_POLICY,
    approval_rules: [rule("transfer", "12500"), DEFAULT_POLICY.approval_rules[1]!],
  };

  it("says what it changes, before → after, in the app's number format", () => {
    const changes = proposalChanges({ before: DEFAULT_POLICY, after: raised }, formatUsd);
    expect(changes.map(changeWords)).toEqual([
      "Approval of transfers: from 10,000.00 USD: 1 approval, open 120 min → from 12,500.00 USD: 1 approval, open 120 min",
    ]);
    expect(changes[0]!.loosens).toBe(true);
  });

  it("reads a policy stored before the daily transfer limit existed with the default, as the server does", () => {
    const { daily_transfer_usd_per_user: _, ...older } = DEFAULT_POLICY.limits;
    const before = { ...DEFAULT_POLICY, limits: older } as Policy;
    expect(proposalChanges({ before, after: raised }).map((c) => c.field)).toEqual(["approval_rules.transfer"]);
  });

  it("applies when approved only while the policy in force is the one it was asked against", () => {
    const proposal = { before: DEFAULT_POLICY, after: raised };
    expect(askedAgainst(proposal, DEFAULT_POLICY)).toBe(true);
    const tightened = { ...DEFAULT_POLICY, limits: { ...DEFAULT_POLICY.limits, price_guard_percent: "4" } };
    expect(askedAgainst(proposal, tightened)).toBe(false);
  });
});
