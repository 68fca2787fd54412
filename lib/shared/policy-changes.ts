import { compareDecimal } from "@/lib/spec/decimal";
import type { PolicyProposal } from "./approval";
import { approvalRuleFor, withDefaults, type ApprovalRule, type CreateKind, type Policy } from "./policy";
import type { Role } from "./roles";

/**
 * What a new policy changes, field by field, and whether each change loosens the controls. A
 * change that loosens anything waits for a second person (an approver or another admin); one
 * that only tightens applies at once. The server decides with this, and the Policies page and
 * the Approvals page say it with the same list.
 */

export interface PolicyChange {
  /** The field, as the document names it ("limits.price_guard_percent", "approval_rules.transfer"). */
  field: string;
  /** The field in words: "Largest order, trader". */
  label: string;
  before: string;
  after: string;
  /** True when this change lets more through than before. */
  loosens: boolean;
}

/** How an amount in USD is written: plain by default; the pages pass their grouping formatter. */
export type UsdWords = (usd: string) => string;

const plainUsd: UsdWords = (usd) => `${usd} USD`;

/** Every difference between `before` and `after`, in a stable order. */
export function policyChanges(before: Policy, after: Policy, usd: UsdWords = plainUsd): PolicyChange[] {
  const changes: PolicyChange[] = [];
  for (const kind of ["transfer", "order"] as const) {
    const [b, a] = [rulesWords(before.approval_rules, kind, usd), rulesWords(after.approval_rules, kind, usd)];
    if (b === a) continue;
    changes.push({
      field: `approval_rules.${kind}`,
      label: kind === "order" ? "Approval of orders" : "Approval of transfers",
      before: b,
      after: a,
      loosens: rulesLoosen(before.approval_rules, after.approval_rules, kind),
    });
  }
  const roles = [
    ...new Set([
      ...Object.keys(before.limits.max_order_notional_usd),
      ...Object.keys(after.limits.max_order_notional_usd),
    ]),
  ].sort() as Role[];
  for (const role of roles) {
    const change = limitChange(
      `limits.max_order_notional_usd.${role}`,
      `Largest order, ${role}`,
      before.limits.max_order_notional_usd[role],
      after.limits.max_order_notional_usd[role],
      usd,
    );
    if (change) changes.push(change);
  }
  const daily = [
    ["daily_order_notional_usd_per_user", "Orders per person per UTC day"],
    ["daily_transfer_usd_per_user", "Transfers per person per UTC day"],
  ] as const;
  for (const [field, label] of daily) {
    const change = limitChange(
      `limits.${field}`,
      label,
      before.limits[field] ?? undefined,
      after.limits[field] ?? undefined,
      usd,
    );
    if (change) changes.push(change);
  }
  const [gb, ga] = [before.limits.price_guard_percent, after.limits.price_guard_percent];
  if (compareDecimal(gb, ga) !== 0) {
    changes.push({
      field: "limits.price_guard_percent",
      label: "Price guard",
      before: `${gb}%`,
      after: `${ga}%`,
      // A wider guard asks about fewer orders.
      loosens: compareDecimal(ga, gb) > 0,
    });
  }
  return changes;
}

/** True when any change loosens the controls: then a second person must approve it. */
export const loosensAnything = (changes: readonly PolicyChange[]): boolean => changes.some((c) => c.loosens);

/** One change in words, as the pages list it: "Price guard: 5% → 4%". */
export const changeWords = (c: PolicyChange): string => `${c.label}: ${c.before} → ${c.after}`;

/**
 * What a held policy change (an approval of kind "policy") changes; a policy stored before a
 * field existed reads with the defaults, as the server reads it.
 */
export const proposalChanges = ({ before, after }: PolicyProposal, usd: UsdWords = plainUsd): PolicyChange[] =>
  policyChanges(withDefaults(before), withDefaults(after), usd);

/**
 * True when the policy in force is still the one a held change was asked against: only then does
 * approving it apply it (lib/server/approvals/policy-updates.ts answers 409 otherwise).
 */
export const askedAgainst = ({ before }: PolicyProposal, inForce: Policy): boolean =>
  policyChanges(withDefaults(before), withDefaults(inForce)).length === 0;

/** A limit in USD, where none (undefined) is no limit at all. */
function limitChange(
  field: string,
  label: string,
  before: string | undefined,
  after: string | undefined,
  usd: UsdWords,
): PolicyChange | undefined {
  if (before === after || (before !== undefined && after !== undefined && compareDecimal(before, after) === 0)) {
    return undefined;
  }
  const words = (v: string | undefined) => (v === undefined ? "no limit" : usd(v));
  const loosens = after === undefined || (before !== undefined && compareDecimal(after, before) > 0);
  return { field, label, before: words(before), after: words(after), loosens };
}

/**
 * True when some value of `kind` needs fewer approvals (or none) under `after`, or stays open
 * longer. The rules are step functions of the value that change only at thresholds, so
 * comparing them at every threshold of either set compares them everywhere.
 */
function rulesLoosen(before: readonly ApprovalRule[], after: readonly ApprovalRule[], kind: CreateKind): boolean {
  const thresholds = [...before, ...after].filter((r) => r.kind === kind).map((r) => r.threshold_usd);
  return thresholds.some((t) => {
    const was = approvalRuleFor(before, kind, t);
    if (!was) return false;
    const now = approvalRuleFor(after, kind, t);
    return !now || now.approvals_needed < was.approvals_needed || now.open_minutes > was.open_minutes;
  });
}

/** "from 10,000 USD: 1 approval, open 120 min; from 1,000,000 USD: 2 approvals, …", or "none". */
function rulesWords(rules: readonly ApprovalRule[], kind: CreateKind, usd: UsdWords): string {
  const mine = rules
    .filter((r) => r.kind === kind)
    .sort((a, b) => compareDecimal(a.threshold_usd, b.threshold_usd) || a.approvals_needed - b.approvals_needed);
  if (mine.length === 0) return "none";
  return mine
    .map(
      (r) =>
        `from ${usd(r.threshold_usd)}: ${r.approvals_needed} approval${r.approvals_needed === 1 ? "" : "s"}, open ${r.open_minutes} min`,
    )
    .join("; ");
}
