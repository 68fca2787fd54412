import * as z from "zod/mini";
import { compareDecimal, decimalProblem } from "@/lib/spec/decimal";
import type { Role } from "./roles";

/**
 * The desk's controls, set by an admin on the Policies page (`GET`/`PUT /api/policies`):
 * which creates need approval by someone else (four eyes), and the pre-trade limits. Values
 * are in USD, decimal strings, valued from the service's own prices (lib/spec valuation).
 * Shared by the page's form and the server that enforces it.
 */

export type CreateKind = "order" | "transfer";

/** Creates of `kind` worth at least `threshold_usd` wait for `approvals_needed` approvers. */
export interface ApprovalRule {
  kind: CreateKind;
  threshold_usd: string;
  approvals_needed: 1 | 2;
  /** How long a request stays open before it expires. */
  open_minutes: number;
}

export interface Limits {
  /** The largest order notional each role may send; a role left out has no limit. */
  max_order_notional_usd: Partial<Record<Role, string>>;
  /** The most one person may send in orders in a UTC day (sent, approved and waiting); null for no limit. */
  daily_order_notional_usd_per_user: string | null;
  /** The most one person may move in internal transfers in a UTC day, counted alike; null for no limit. */
  daily_transfer_usd_per_user: string | null;
  /** An order taking liquidity further than this from the mid needs the market's name typed to confirm. */
  price_guard_percent: string;
}

export interface Policy {
  approval_rules: ApprovalRule[];
  limits: Limits;
}

export const DEFAULT_POLICY: Policy = {
  approval_rules: [
    { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
    { kind: "order", threshold_usd: "100000", approvals_needed: 1, open_minutes: 120 },
  ],
  limits: {
    max_order_notional_usd: { trader: "1000000", admin: "5000000" },
    daily_order_notional_usd_per_user: "10000000",
    daily_transfer_usd_per_user: "1000000",
    price_guard_percent: "5",
  },
};

/** The daily limit on creates of `kind` for one person, or null for none. */
export const dailyLimitOf = (limits: Limits, kind: CreateKind): string | null =>
  kind === "order" ? limits.daily_order_notional_usd_per_user : limits.daily_transfer_usd_per_user;

/** The policy's field that holds the daily limit on `kind` (a refusal names it). */
export const dailyLimitRule = (kind: CreateKind) =>
  kind === "order" ? "daily_order_notional_usd_per_user" : "daily_transfer_usd_per_user";

/**
 * The rule that applies: the one of this kind with the highest threshold the value reaches. The
 * value is a person's rolling 24 h total of what they sent without approval, this create included.
 */
export function approvalRuleFor(
  rules: readonly ApprovalRule[],
  kind: CreateKind,
  valueUsd: string,
): ApprovalRule | undefined {
  return rules
    .filter((r) => r.kind === kind && compareDecimal(valueUsd, r.threshold_usd) >= 0)
    .sort((a, b) => compareDecimal(b.threshold_usd, a.threshold_usd))[0];
}

/** What a form shows its user before sending: the rules of its kind, and for orders the user's limits. */
export interface FormControls {
  kind: CreateKind;
  approvalRules: ApprovalRule[];
  /** The user's largest order, in USD; absent without a limit (and for transfers). */
  maxOrderUsd?: string;
  /** What the user may send of this kind in a UTC day, in USD; absent without a limit. */
  dailyUsd?: string;
}

export function formControlsFor(policy: Policy, role: Role, kind: CreateKind): FormControls {
  const approvalRules = policy.approval_rules.filter((r) => r.kind === kind);
  const daily = dailyLimitOf(policy.limits, kind);
  const max = kind === "order" ? policy.limits.max_order_notional_usd[role] : undefined;
  return {
    kind,
    approvalRules,
    ...(max !== undefined && { maxOrderUsd: max }),
    ...(daily !== null && { dailyUsd: daily }),
  };
}

/** A policy as stored before a field existed: the defaults fill what it lacks. */
export const withDefaults = (p: Policy): Policy => ({ ...p, limits: { ...DEFAULT_POLICY.limits, ...p.limits } });

/**
 * An amount in USD, refused in words a person reads beside the field, with an example of the
 * field's own kind ("Largest order must be an amount in USD such as 1000000 or 250000.50").
 */
const usd = (label: string, example: string) => {
  const message = `${label} must be an amount in USD greater than zero, such as ${example}`;
  return z.string({ error: message }).check(z.refine((v) => decimalProblem(v) === null, message));
};

const PERCENT = "Price guard must be a percentage greater than zero, such as 5 or 12.5";

/** One approval rule as the policy holds it (the OpenAPI document's ApprovalRule too). */
export const approvalRuleSchema = z.strictObject({
  kind: z.enum(["order", "transfer"], { error: "A rule applies to orders or to transfers" }),
  threshold_usd: usd("A rule's threshold", "10000 or 2500.50"),
  approvals_needed: z.union([z.literal(1), z.literal(2)], { error: "Approvals needed must be 1 or 2" }),
  open_minutes: z
    .number({ error: "Expires after must be a whole number of minutes, such as 120" })
    .check(
      z.int("Expires after must be a whole number of minutes, such as 120"),
      z.minimum(5, "Expires after must be at least 5 minutes"),
      z.maximum(10_080, "Expires after may be at most 10080 minutes (a week)"),
    ),
});

/** A whole policy as `PUT /api/policies` takes it; every error names its field. */
export const policySchema = z.strictObject({
  approval_rules: z.array(approvalRuleSchema).check(z.maxLength(20, "A policy may hold at most 20 approval rules")),
  limits: z.strictObject({
    max_order_notional_usd: z.partialRecord(
      z.enum(["viewer", "trader", "ops", "approver", "admin"], { error: "A largest order is set per role" }),
      usd("Largest order", "1000000 or 250000.50"),
    ),
    daily_order_notional_usd_per_user: z.nullable(usd("Orders per person per UTC day", "10000000")),
    // Optional, so a document written before it existed still saves: left out, it keeps the one in force.
    daily_transfer_usd_per_user: z.optional(z.nullable(usd("Transfers per person per UTC day", "1000000"))),
    price_guard_percent: z.string({ error: PERCENT }).check(
      z.refine((v) => decimalProblem(v) === null, PERCENT),
      // Compared only once it is a decimal: compareDecimal would throw on "abc" (zod runs every refine).
      z.refine((v) => decimalProblem(v) !== null || compareDecimal(v, "100") <= 0, "Price guard may be at most 100%"),
    ),
  }),
});

/** A policy as `PUT /api/policies` takes it: `daily_transfer_usd_per_user` may be left out (kept as it is). */
export type PolicyDocument = z.infer<typeof policySchema>;

/** The document if it is a whole, valid policy (the Policies page weighs a draft with it); else undefined. */
export function policyIfValid(input: unknown): Policy | undefined {
  const result = z.safeParse(policySchema, input);
  if (!result.success) return undefined;
  const limits = result.data.limits;
  return {
    ...result.data,
    limits: { ...limits, daily_transfer_usd_per_user: limits.daily_transfer_usd_per_user ?? null },
  };
}
