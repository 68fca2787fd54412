import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY, type ApprovalRule, type Policy } from "@/lib/shared/policy";
import { loosensAnything, policyChanges } from "@/lib/shared/policy-changes";

const transferRule = DEFAULT_POLICY.approval_rules[0]!;
const withRules = (rules: ApprovalRule[]): Policy => ({ ...DEFAULT_POLICY, approval_rules: rules });
const withLimits = (limits: Partial<Policy["limits"]>): Policy => ({
  ...DEFAULT_POLICY,
  limits: { ...DEFAULT_POLICY.limits, ...limits },
});
const loosens = (after: Policy, before: Policy = DEFAULT_POLICY) => loosensAnything(policyChanges(before, after));

describe("what a policy change does", () => {
  it.each<[string, Policy]>([
    ["a higher threshold", withRules([{ ...transferRule, threshold_usd: "20000" }, DEFAULT_POLICY.approval_rules[1]!])],
    ["a removed rule", withRules([DEFAULT_POLICY.approval_rules[1]!])],
    ["no rules at all", withRules([])],
    ["fewer approvals", withRules([{ ...transferRule, approvals_needed: 1 }, DEFAULT_POLICY.approval_rules[1]!])],
    ["a longer open time", withRules([{ ...transferRule, open_minutes: 600 }, DEFAULT_POLICY.approval_rules[1]!])],
    ["a higher role limit", withLimits({ max_order_notional_usd: { trader: "2000000", admin: "5000000" } })],
    ["a role's limit removed", withLimits({ max_order_notional_usd: { admin: "5000000" } })],
    ["a higher daily order limit", withLimits({ daily_order_notional_usd_per_user: "20000000" })],
    ["a removed daily transfer limit", withLimits({ daily_transfer_usd_per_user: null })],
    ["a wider price guard", withLimits({ price_guard_percent: "10" })],
  ])("loosens with %s", (_, after) => {
    const base =
      _ === "fewer approvals"
        ? withRules([{ ...transferRule, approvals_needed: 2 }, DEFAULT_POLICY.approval_rules[1]!])
        : DEFAULT_POLICY;
    expect(loosens(after, base)).toBe(true);
  });

  it.each<[string, Policy]>([
    ["a lower threshold", withRules([{ ...transferRule, threshold_usd: "5000" }, DEFAULT_POLICY.approval_rules[1]!])],
    [
      "a tier added above",
      withRules([...DEFAULT_POLICY.approval_rules, { ...transferRule, threshold_usd: "1000000", approvals_needed: 2 }]),
    ],
    ["a shorter open time", withRules([{ ...transferRule, open_minutes: 30 }, DEFAULT_POLICY.approval_rules[1]!])],
    [
      "a lower role limit, a limit for a new role",
      withLimits({ max_order_notional_usd: { trader: "1", admin: "5000000", ops: "1" } }),
    ],
    [
      "a daily limit lowered",
      withLimits({ daily_order_notional_usd_per_user: "100", daily_transfer_usd_per_user: "100" }),
    ],
    ["a narrower price guard", withLimits({ price_guard_percent: "2.5" })],
    ["nothing", DEFAULT_POLICY],
  ])("only tightens with %s", (_, after) => {
    expect(loosens(after)).toBe(false);
  });

  it("lists each change in words, with whether it loosens", () => {
    const after = withLimits({ price_guard_percent: "10", daily_order_notional_usd_per_user: "1000" });
    expect(policyChanges(DEFAULT_POLICY, after)).toEqual([
      {
        field: "limits.daily_order_notional_usd_per_user",
        label: "Orders per person per UTC day",
        before: "10000000 USD",
        after: "1000 USD",
        loosens: false,
      },
      { field: "limits.price_guard_percent", label: "Price guard", before: "5%", after: "10%", loosens: true },
    ]);
    expect(policyChanges(DEFAULT_POLICY, withRules([]))[0]).toMatchObject({
      label: "Approval of transfers",
      before: "from 10000 USD: 1 approval, open 120 min",
      after: "none",
      loosens: true,
    });
  });
});
