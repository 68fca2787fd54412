import type { ApprovalRule } from "@/lib/shared/policy";
import type { UsdWords } from "@/lib/shared/policy-changes";
import { compareDecimal, divideDecimalDown, multiplyDecimal } from "@/lib/spec/decimal";

/**
 * The approval rules in the Policies page's words, as the create path enforces them
 * (lib/server/create/controls/verdict.ts and totals.ts): a rule's threshold is weighed against
 * a rolling 24 h total of what the person sent without approval, not against one request.
 */
export const APPROVAL_RULE_WORDS = [
  "A transfer or an order is held for approval when what its requester sent of that kind without approval in the last 24 hours, this one included, reaches a rule's threshold; it is sent once that many approvers other than the requester approve it. With several rules of one kind, the rule of the highest threshold reached applies.",
  "What is approved does not count toward that total, nor what waits for approval. A transfer or an order of an asset no market prices in USD always waits for approval (by the lowest rule of its kind, or one approval when there is none).",
] as const;

/** What the page says when there is no rule: the unpriced still wait. */
export const NO_RULE_WORDS =
  "No rule: only transfers and orders of an asset no market prices in USD wait for approval (one approval each).";

/**
 * The rolling total worked through at the lowest rule of transfers (or of orders, without one):
 * two requests each under the threshold, the second held because together they reach it.
 * Undefined without a rule, or when the threshold is too small for such an example in cents.
 */
export function rollingExample(rules: readonly ApprovalRule[], usd: UsdWords): string | undefined {
  const rule = lowestRule(rules, "transfer") ?? lowestRule(rules, "order");
  if (!rule) return undefined;
  const t = rule.threshold_usd;
  // Three fifths of the threshold, to the cent: one is under it, two reach it.
  const each = divideDecimalDown(multiplyDecimal(t, "3"), "5", 2);
  const both = multiplyDecimal(each, "2");
  if (compareDecimal(each, "0") <= 0 || compareDecimal(both, t) < 0) return undefined;
  const kind = `${rule.kind}s`;
  return `For example, under the ${rule.kind} rule in force, from ${usd(t)}, a person who sends two ${kind} of ${usd(each)} within 24 hours has the first sent and the second held: together they come to ${usd(both)}.`;
}

const lowestRule = (rules: readonly ApprovalRule[], kind: ApprovalRule["kind"]) =>
  rules.filter((r) => r.kind === kind).sort((a, b) => compareDecimal(a.threshold_usd, b.threshold_usd))[0];
