import { get } from "react-hook-form";
import { describe, expect, it } from "vitest";
import {
  policyResolver,
  policyValues,
  toPolicyDocument,
  type PolicyValues,
} from "@/components/policies/policy-form-values";
import { DEFAULT_POLICY, type Policy } from "@/lib/shared/policy";

const options = { fields: {}, shouldUseNativeValidation: false, criteriaMode: "firstError", names: undefined } as never;
const resolve = (v: PolicyValues, base?: Policy) => policyResolver(base)(v, undefined, options);
const edit = (change: (v: PolicyValues) => void): PolicyValues => {
  const v = structuredClone(policyValues(DEFAULT_POLICY));
  change(v);
  return v;
};
const messageAt = (errors: object, path: string) => (get(errors, path) as { message?: string } | undefined)?.message;

describe("the Policies form", () => {
  it("round-trips the defaults into the document PUT /api/policies takes", async () => {
    expect(toPolicyDocument(policyValues(DEFAULT_POLICY))).toEqual(DEFAULT_POLICY);
    const result = await resolve(policyValues(DEFAULT_POLICY));
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ request: DEFAULT_POLICY });
  });

  it("sends a blank limit as none, and keeps limits of roles the form does not show", () => {
    const base: Policy = {
      ...DEFAULT_POLICY,
      limits: { ...DEFAULT_POLICY.limits, max_order_notional_usd: { trader: "1", ops: "7" } },
    };
    const doc = toPolicyDocument(
      edit((v) => {
        v.limits.max_order_notional_usd.trader = " ";
        v.limits.daily_order_notional_usd_per_user = "";
      }),
      base,
    ) as unknown as Policy;
    expect(doc.limits.max_order_notional_usd).toEqual({ ops: "7", admin: "5000000" });
    expect(doc.limits.daily_order_notional_usd_per_user).toBeNull();
  });

  it.each<[string, (v: PolicyValues) => void, string, RegExp]>([
    [
      "a threshold that is not an amount",
      (v) => (v.approval_rules[0]!.threshold_usd = "10k"),
      "approval_rules.0.threshold_usd",
      /positive decimal/,
    ],
    [
      "an expiry under 5 minutes",
      (v) => (v.approval_rules[1]!.open_minutes = "4"),
      "approval_rules.1.open_minutes",
      /at least 5/,
    ],
    [
      "an expiry in part minutes",
      (v) => (v.approval_rules[1]!.open_minutes = "7.5"),
      "approval_rules.1.open_minutes",
      /whole number/,
    ],
    [
      "an expiry over a week",
      (v) => (v.approval_rules[0]!.open_minutes = "10081"),
      "approval_rules.0.open_minutes",
      /at most 10080/,
    ],
    [
      "a role's limit of zero",
      (v) => (v.limits.max_order_notional_usd.trader = "0"),
      "limits.max_order_notional_usd.trader",
      /positive/,
    ],
    [
      "a price guard over 100%",
      (v) => (v.limits.price_guard_percent = "100.01"),
      "limits.price_guard_percent",
      /at most 100/,
    ],
    [
      "two transfer rules at one threshold",
      (v) => v.approval_rules.push({ ...v.approval_rules[0]! }),
      "approval_rules.2.threshold_usd",
      /threshold/,
    ],
  ])("refuses %s on its own field", async (_, change, path, message) => {
    const result = await resolve(edit(change));
    expect(result.values).toEqual({});
    expect(messageAt(result.errors, path)).toMatch(message);
  });

  it("takes the boundaries: 5 and 10080 minutes, a guard of exactly 100%, two approvals", async () => {
    const result = await resolve(
      edit((v) => {
        v.approval_rules[0]!.open_minutes = "5";
        v.approval_rules[1]!.open_minutes = "10080";
        v.approval_rules[1]!.approvals_needed = "2";
        v.limits.price_guard_percent = "100";
      }),
    );
    expect(result.errors).toEqual({});
  });
});
