import "server-only";
import { NO_USD_PRICE } from "@/lib/shared/approval";
import { formatUsd } from "@/lib/shared/format";
import { approvalRuleFor, dailyLimitOf, dailyLimitRule, type ApprovalRule } from "@/lib/shared/policy";
import { PRICE_GUARD_TYPE, type PriceGuard } from "@/lib/shared/price-guard";
import { can } from "@/lib/shared/roles";
import { marketLabel } from "@/lib/spec/markets";
import { addDecimal, compareDecimal, divideDecimalDown, problem, type Problem } from "@/lib/spec";
import type { OrderAmounts } from "@/lib/spec/valuation";
import type { Create } from "../create";
import type { Facts } from "./facts";
import { priceGuardReading } from "./price-guard";
import type { Totals } from "./totals";

/**
 * Step 4, the controls' verdict on a create: `send`, `hold` (four eyes, by the rule that
 * applies) or `refuse` (the problem to answer). Pure: it reads what readFacts and totalsOf read
 * and writes nothing; the pipeline acts on it. In order:
 * 1. the requester's role now may make this kind of create (it may have changed while an
 *    approval waited);
 * 2. an asset no market prices in USD cannot be weighed: it waits for approval ("no USD price");
 * 3. the largest order for the role, then the person's daily limit of the kind (sent today,
 *    approved or not, plus what waits for approval): a 403 naming the limit and the figures;
 * 4. the price guard: a 428 until the market's name is typed (or, at an approver's send, unless
 *    the requester confirmed at least this deviation when asking);
 * 5. the funds, when read: an unknown profile (404) or a shortfall (403) is refused at once;
 * 6. four eyes: the rule the person's rolling 24 h total of what they sent without approval
 *    reaches, this create included, holds it. An approved create has had its four eyes.
 */
export type Verdict =
  { send: Terms } | { hold: Terms & { rule: ApprovalRule; reason: string | null } } | { refuse: Refusal };

/** What the create was weighed at, kept with it (the journal's value, the confirmed guard). */
export interface Terms {
  valueUsd: string | null;
  /** The price guard the person confirmed by typing the market's name, for the audit trail. */
  guardConfirmed?: PriceGuard;
}

export interface Refusal {
  problem: Problem;
  /** How the audit trail records it. */
  action: "limit.refused" | "price_guard.confirm_asked" | "create.refused";
}

export interface Weighing {
  create: Create;
  facts: Facts;
  totals: Totals;
  /** The market typed past the price guard (header Confirm-Price-Guard). */
  confirmedMarket?: string | null;
  /** At an approver's send: the approval it is sent under, and the guard its requester confirmed. */
  approved?: { id: string; guardConfirmed: PriceGuard | null };
}

export function verdictOf(w: Weighing): Verdict {
  const { create, facts, totals } = w;
  const action = create.kind === "order" ? "orders:create" : "transfers:create";
  if (!can(facts.role, action)) {
    const detail = `The requester's role is now ${facts.role}, which may not do this (${action}).`;
    return {
      refuse: { problem: problem(403, "Forbidden", detail, { role: facts.role, action }), action: "create.refused" },
    };
  }
  const valueUsd = facts.valueUsd;
  if (valueUsd === null) {
    const refused = fundsRefusal(facts);
    if (refused) return refused;
    if (w.approved) return { send: { valueUsd } };
    return { hold: { valueUsd, rule: unpricedRule(w), reason: NO_USD_PRICE } };
  }
  const limited = orderLimit(w, valueUsd) ?? dailyLimit(w, valueUsd);
  if (limited) return { refuse: { problem: limited, action: "limit.refused" } };
  const guard = guardOf(w);
  if (guard && "problem" in guard) return { refuse: { problem: guard.problem, action: "price_guard.confirm_asked" } };
  const refused = fundsRefusal(facts);
  if (refused) return refused;
  const terms: Terms = { valueUsd, ...(guard && { guardConfirmed: guard.confirmed }) };
  if (w.approved) return { send: terms };
  const total = addDecimal(totals.unapproved24h, valueUsd);
  const rule = approvalRuleFor(facts.policy.approval_rules, create.kind, total);
  if (!rule) return { send: terms };
  const alone = approvalRuleFor(facts.policy.approval_rules, create.kind, valueUsd);
  return { hold: { ...terms, rule, reason: alone ? null : rollingReason(create.kind, total, rule) } };
}

const fundsRefusal = (facts: Facts): Verdict | undefined =>
  typeof facts.funds === "object" ? { refuse: { problem: facts.funds, action: "create.refused" } } : undefined;

/** An unpriced create waits for the lowest rule of its kind, or one approval when there is none. */
function unpricedRule(w: Weighing): ApprovalRule {
  const mine = w.facts.policy.approval_rules
    .filter((r) => r.kind === w.create.kind)
    .sort((a, b) => compareDecimal(a.threshold_usd, b.threshold_usd));
  return mine[0] ?? { kind: w.create.kind, threshold_usd: "0", approvals_needed: 1, open_minutes: 120 };
}

const limitRefused = (detail: string, meta: Record<string, unknown>): Problem => ({
  type: "/problems/limit-exceeded",
  title: "Limit Exceeded",
  status: 403,
  detail,
  meta,
});

function orderLimit(w: Weighing, valueUsd: string): Problem | undefined {
  if (w.create.kind !== "order") return undefined;
  const role = w.facts.role;
  const limit = w.facts.policy.limits.max_order_notional_usd[role];
  if (limit === undefined || compareDecimal(valueUsd, limit) <= 0) return undefined;
  return limitRefused(
    `An order may be worth at most ${formatUsd(limit)} for the ${role} role; this one is ${formatUsd(usd(valueUsd))}.`,
    { rule: "max_order_notional_usd", role, limit, requested: usd(valueUsd), currency: "USD" },
  );
}

function dailyLimit(w: Weighing, valueUsd: string): Problem | undefined {
  const kind = w.create.kind;
  const limit = dailyLimitOf(w.facts.policy.limits, kind);
  const used = w.totals.today;
  if (limit === null || compareDecimal(addDecimal(used, valueUsd), limit) <= 0) return undefined;
  const what = kind === "order" ? "orders" : "transfers";
  return limitRefused(
    `You may send at most ${formatUsd(limit)} of ${what} a day; ${formatUsd(usd(used))} are sent or waiting today, and this one is ${formatUsd(usd(valueUsd))}.`,
    { rule: dailyLimitRule(kind), limit, used: usd(used), requested: usd(valueUsd), currency: "USD" },
  );
}

/** Past the guard: confirmed (typed now, or by the requester of an approved request), or the 428 asking. */
function guardOf(w: Weighing): { confirmed: PriceGuard } | { problem: Problem } | undefined {
  const { create, facts } = w;
  if (create.kind !== "order" || !facts.quote) return undefined;
  const order: OrderAmounts = create.request;
  const guard = priceGuardReading(order, facts.quote, facts.book, facts.policy.limits.price_guard_percent);
  if (!guard) return undefined;
  if (w.approved) {
    const asked = w.approved.guardConfirmed;
    if (asked && compareDecimal(guard.deviation_percent, asked.deviation_percent) <= 0) return { confirmed: guard };
    const detail = `This order would now trade ${guard.deviation_percent}% from the mid (${guard.mid}), past the ${guard.limit_percent}% guard${asked ? `, further than the ${asked.deviation_percent}% its requester confirmed` : ""}: it was not sent.`;
    return { problem: { type: PRICE_GUARD_TYPE, title: "Confirmation Needed", status: 428, detail, meta: guard } };
  }
  if (w.confirmedMarket?.trim().toUpperCase() === order.market) return { confirmed: guard };
  return {
    problem: {
      type: PRICE_GUARD_TYPE,
      title: "Confirmation Needed",
      status: 428,
      detail: `This order would trade at ${guard.price}, ${guard.deviation_percent}% from the mid (${guard.mid}), past the ${guard.limit_percent}% guard. Type ${marketLabel(order.market)} to confirm.`,
      meta: guard,
    },
  };
}

function rollingReason(kind: string, total: string, rule: ApprovalRule): string {
  return `With this one, the ${kind}s you sent without approval in the last 24 h come to ${formatUsd(total)}, past the ${formatUsd(rule.threshold_usd)} rule`;
}

/** A USD figure for people: cents. */
const usd = (value: string) => divideDecimalDown(value, "1", 2);
