import { get } from "react-hook-form";
import { describe, expect, it } from "vitest";
import {
  policyResolver,
  policyValues,
  toPolicyDocument,
  type PolicyValues,
} from "@/components/policies/policy-form-values";
import { DEFAULT_POLICY, policyIfValid, type Policy } from "@/lib/shared/policy";

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
      /^A rule's threshold must be an amount in USD greater than zero, such as 10000/,
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
      /^Largest order must be an amount in USD greater than zero/,
    ],
    [
      "a price guard over 100%",
      (v) => (v.limits.price_guard_percent = "100.01"),
      "limits.price_guard_percent",
      /^Price guard may be at most 100%/,
    ],
    [
      "a price guard of words",
      (v) => (v.limits.price_guard_percent = "abc"),
      "limits.price_guard_percent",
      /^Price guard must be a percentage greater than zero, such as 5 or 12\.5$/,
    ],
    [
      "a price guard with a sign and letters",
      (v) => (v.limits.price_guard_percent = "-5abc"),
      "limits.price_guard_percent",
      /^Price guard must be a percentage/,
    ],
    [
      "a daily limit grouped wrongly",
      (v) => (v.limits.daily_transfer_usd_per_user = "1,00,000"),
      "limits.daily_transfer_usd_per_user",
      /^Transfers per person per UTC day must be an amount in USD/,
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

  it("shows limits grouped and takes grouped amounts and a percentage with its sign", async () => {
    const shown = policyValues(DEFAULT_POLICY);
    expect(shown.limits.daily_order_notional_usd_per_user).toBe("10,000,000");
    expect(shown.approval_rules[0]!.threshold_usd).toBe("10,000");
    const result = await resolve(
      edit((v) => {
        v.limits.max_order_notional_usd.trader = "1,000,000";
        v.approval_rules[0]!.threshold_usd = "12,500.50";
        v.limits.price_guard_percent = "7.5 %";
      }),
    );
    expect(result.errors).toEqual({});
    const request = (result.values as { request: Policy }).request;
    expect(request.limits.max_order_notional_usd.trader).toBe("1000000");
    expect(request.approval_rules[0]!.threshold_usd).toBe("12500.50");
    expect(request.limits.price_guard_percent).toBe("7.5");
  });

  it.each(["abc", "-5abc", "1e5", "5,5", "%", "١٢", "0x10", " "])(
    "never throws on a price guard of %j: the draft is weighed and refused in words",
    async (typed) => {
      const v = edit((d) => (d.limits.price_guard_percent = typed));
      expect(() => policyIfValid(toPolicyDocument(v))).not.toThrow();
      const result = await resolve(v);
      expect(messageAt(result.errors, "limits.price_guard_percent")).toMatch(/^Price guard must be a percentage/);
    },
  );
});
