import type { FieldErrors } from "react-hook-form";
import type { CreateKind, Policy, PolicyDocument } from "@/lib/shared/policy";
import { groupAmountInput, parseAmountInput, parsePercentInput } from "@/lib/shared/format";
import type { Role } from "@/lib/shared/roles";
import { specResolver, type FormOutput } from "../forms/spec-resolver";

/**
 * The Policies form's fields as the browser holds them: text, shaped and named like the
 * document `PUT /api/policies` takes, so each of lib/shared/policy.ts's errors (and the server's)
 * lands on its own field ("approval_rules.0.threshold_usd", "limits.price_guard_percent").
 * Amounts are shown grouped ("10,000,000") and may be typed either way; a percentage may
 * carry its "%".
 */
export interface RuleValues {
  kind: CreateKind;
  threshold_usd: string;
  approvals_needed: "1" | "2";
  open_minutes: string;
}

/** The roles a limit on order size is offered for: those that may place orders. */
export const ORDER_ROLES = ["trader", "admin"] as const satisfies readonly Role[];

export interface PolicyValues {
  approval_rules: RuleValues[];
  limits: {
    /** Blank: no limit for that role. */
    max_order_notional_usd: Record<(typeof ORDER_ROLES)[number], string>;
    /** Blank: no daily limit. */
    daily_order_notional_usd_per_user: string;
    /** Blank: no daily limit. */
    daily_transfer_usd_per_user: string;
    price_guard_percent: string;
  };
}

export type PolicyOutput = FormOutput<PolicyDocument>;

export const policyValues = (p: Policy): PolicyValues => ({
  approval_rules: p.approval_rules.map((r) => ({
    kind: r.kind,
    threshold_usd: groupAmountInput(r.threshold_usd),
    approvals_needed: String(r.approvals_needed) as "1" | "2",
    open_minutes: String(r.open_minutes),
  })),
  limits: {
    max_order_notional_usd: Object.fromEntries(
      ORDER_ROLES.map((role) => [role, groupAmountInput(p.limits.max_order_notional_usd[role] ?? "")]),
    ) as PolicyValues["limits"]["max_order_notional_usd"],
    daily_order_notional_usd_per_user: groupAmountInput(p.limits.daily_order_notional_usd_per_user ?? ""),
    daily_transfer_usd_per_user: groupAmountInput(p.limits.daily_transfer_usd_per_user ?? ""),
    price_guard_percent: p.limits.price_guard_percent,
  },
});

/** Whole minutes as a number; anything else is passed on as typed, for the schema to name. */
const minutesOf = (text: string): number | string => (/^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : text);

/**
 * The document the form would send. Limits of roles the form does not offer are kept from
 * `base` (the policy in force), so saving never drops what another tool set. Grouped amounts
 * are sent plain; text that is no amount is passed on as typed, for the schema to name.
 */
export function toPolicyDocument(v: PolicyValues, base?: Policy): Record<string, unknown> {
  const max: Record<string, string> = { ...base?.limits.max_order_notional_usd };
  for (const role of ORDER_ROLES) {
    const value = parseAmountInput(v.limits.max_order_notional_usd[role]);
    if (value) max[role] = value;
    else delete max[role];
  }
  return {
    approval_rules: v.approval_rules.map((r) => ({
      kind: r.kind,
      threshold_usd: parseAmountInput(r.threshold_usd),
      approvals_needed: Number(r.approvals_needed),
      open_minutes: minutesOf(r.open_minutes),
    })),
    limits: {
      max_order_notional_usd: max,
      daily_order_notional_usd_per_user: parseAmountInput(v.limits.daily_order_notional_usd_per_user) || null,
      daily_transfer_usd_per_user: parseAmountInput(v.limits.daily_transfer_usd_per_user) || null,
      price_guard_percent: parsePercentInput(v.limits.price_guard_percent),
    },
  };
}

/** The form's own rule beyond the schema's: two rules of one kind at one threshold would be ambiguous. */
function policyErrors(v: PolicyValues): FieldErrors<PolicyValues> {
  const seen = new Set<string>();
  const rules: Record<number, { threshold_usd: { type: string; message: string } }> = {};
  v.approval_rules.forEach((r, i) => {
    const key = `${r.kind}:${parseAmountInput(r.threshold_usd).replace(/^0+(?=\d)/, "")}`;
    if (seen.has(key)) {
      rules[i] = {
        threshold_usd: {
          type: "duplicate",
          message: `Another ${r.kind} rule has this threshold: give each a different one`,
        },
      };
    }
    seen.add(key);
  });
  return Object.keys(rules).length > 0 ? ({ approval_rules: rules } as FieldErrors<PolicyValues>) : {};
}

/** The form checked against lib/shared/policy.ts's schema, the one `PUT /api/policies` checks; `base` as in toPolicyDocument. */
export const policyResolver = (base?: Policy) =>
  specResolver<PolicyValues, PolicyDocument, PolicyOutput>({
    schema: () => import("@/lib/shared/policy").then((m) => m.policySchema),
    toRequest: (v) => toPolicyDocument(v, base),
    formErrors: policyErrors,
    output: (request) => ({ request }),
  });
