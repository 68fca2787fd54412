import type { FieldErrors } from "react-hook-form";
import type { CreateKind, Policy, PolicyDocument } from "@/lib/shared/policy";
import type { Role } from "@/lib/shared/roles";
import { specResolver, type FormOutput } from "../forms/spec-resolver";

/**
 * The Policies form's fields as the browser holds them: text, shaped and named like the
 * document `PUT /api/policies` takes, so each of lib/shared/policy.ts's errors (and the server's)
 * lands on its own field ("approval_rules.0.threshold_usd", "limits.price_guard_percent").
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
    threshold_usd: r.threshold_usd,
    approvals_needed: String(r.approvals_needed) as "1" | "2",
    open_minutes: String(r.open_minutes),
  })),
  limits: {
    max_order_notional_usd: Object.fromEntries(
      ORDER_ROLES.map((role) => [role, p.limits.max_order_notional_usd[role] ?? ""]),
    ) as PolicyValues["limits"]["max_order_notional_usd"],
    daily_order_notional_usd_per_user: p.limits.daily_order_notional_usd_per_user ?? "",
    daily_transfer_usd_per_user: p.limits.daily_transfer_usd_per_user ?? "",
    price_guard_percent: p.limits.price_guard_percent,
  },
});

/** Whole minutes as a number; anything else is passed on as typed, for the schema to name. */
const minutesOf = (text: string): number | string => (/^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : text);

/**
 * The document the form would send. Limits of roles the form does not offer are kept from
 * `base` (the policy in force), so saving never drops what another tool set.
 */
export function toPolicyDocument(v: PolicyValues, base?: Policy): Record<string, unknown> {
  const max: Record<string, string> = { ...base?.limits.max_order_notional_usd };
  for (const role of ORDER_ROLES) {
    const value = v.limits.max_order_notional_usd[role].trim();
    if (value) max[role] = value;
    else delete max[role];
  }
  return {
    approval_rules: v.approval_rules.map((r) => ({
      kind: r.kind,
      threshold_usd: r.threshold_usd.trim(),
      approvals_needed: Number(r.approvals_needed),
      open_minutes: minutesOf(r.open_minutes),
    })),
    limits: {
      max_order_notional_usd: max,
      daily_order_notional_usd_per_user: v.limits.daily_order_notional_usd_per_user.trim() || null,
      daily_transfer_usd_per_user: v.limits.daily_transfer_usd_per_user.trim() || null,
      price_guard_percent: v.limits.price_guard_percent.trim(),
    },
  };
}

/** The form's own rule beyond the schema's: two rules of one kind at one threshold would be ambiguous. */
function policyErrors(v: PolicyValues): FieldErrors<PolicyValues> {
  const seen = new Set<string>();
  const rules: Record<number, { threshold_usd: { type: string; message: string } }> = {};
  v.approval_rules.forEach((r, i) => {
    const key = `${r.kind}:${r.threshold_usd.trim().replace(/^0+(?=\d)/, "")}`;
    if (seen.has(key)) {
      rules[i] = { threshold_usd: { type: "duplicate", message: `Another ${r.kind} rule has this threshold` } };
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
