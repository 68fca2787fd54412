import "server-only";
import { NO_USD_PRICE } from "@/lib/shared/approval";
import { formatUsd } from "@/lib/shared/format";
import {
  approvalRuleFor,
  dailyLimitOf,
  dailyLimitRule,
  type ApprovalRule,
  type CreateKind,
  type Policy,
} from "@/lib/shared/policy";
import { PRICE_GUARD_TYPE, type PriceGuard } from "@/lib/shared/price-guard";
import { marketLabel } from "@/lib/spec/markets";
import { addDecimal, compareDecimal, divideDecimalDown, type Problem } from "@/lib/spec";
import type { OrderAmounts } from "@/lib/spec/valuation";
import { recipientElsewhereOf, type Create } from "../create";
import type { Facts } from "./facts";
import { priceGuardReading } from "./price-guard";
import { rightsRefusal } from "./rights";
import type { Totals } from "./totals";

/**
 * Step 4, the controls' verdict on a create: `send`, `hold` (four eyes, by the rule that
 * applies) or `refuse` (the problem to answer). Pure: it reads what readFacts and totalsOf read
 * and writes nothing; the pipeline acts on it. In order:
 * 1. the requester's role now may make this kind of create (it may have changed while an
 *    approval waited), and the right to transfer too for an order that settles into another
 *    profile (rights.ts);
 * 2. an asset no market prices in USD cannot be weighed: it waits for approval ("no USD price");
 * 3. the largest order for the role, then the person's daily limit of the kind (sent today,
 *    approved or not, plus what waits for approval): a 403 naming the limit and the figures; an
 *    order settling into another profile meets the daily transfer limit as well;
 * 4. the price guard: a 428 until the market's name is typed (or, at an approver's send, unless
 *    the requester confirmed at least this deviation when asking);
 * 5. the funds, when read: an unknown profile (404) or a shortfall (403) is refused at once;
 * 6. four eyes: the rule the person's rolling 24 h total of what they sent without approval
 *    reaches, this create included, holds it; an order settling into another profile is weighed
 *    against the transfer rules too, and the stricter rule holds it. An approved create has had
 *    its four eyes.
 */
export type Verdict = { send: Terms } | { hold: Terms & HoldTerms } | { refuse: Refusal };

/** Why a create waits: the rule that holds it, and the reason when the rule alone does not say. */
export interface HoldTerms {
  rule: ApprovalRule;
  reason: string | null;
  /** The rolling 24 h total (of the rule's kind) that reached the rule, this create included; null when unpriced. */
  rollingTotalUsd: string | null;
}

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
  /** For an order that settles into another profile: the person's transfer totals, which it counts toward too. */
  transferTotals?: Totals;
  /** The market typed past the price guard (header Confirm-Price-Guard). */
  confirmedMarket?: string | null;
  /** At an approver's send: the approval it is sent under, and the guard its requester confirmed. */
  approved?: { id: string; guardConfirmed: PriceGuard | null };
}

export function verdictOf(w: Weighing): Verdict {
  const { create, facts } = w;
  const forbidden = rightsRefusal(create, facts.role);
  if (forbidden) return { refuse: { problem: forbidden, action: "create.refused" } };
  // An order settling into another profile is weighed as a transfer too: never without those totals.
  if (recipientElsewhereOf(create) && !w.transferTotals) throw new Error("weighed without its transfer totals");
  const valueUsd = facts.valueUsd;
  if (valueUsd === null) {
    const refused = fundsRefusal(facts);
    if (refused) return refused;
    if (w.approved) return { send: { valueUsd } };
    const rules = [unpricedRule(w, create.kind), ...(w.transferTotals ? [unpricedRule(w, "transfer")] : [])];
    return { hold: { valueUsd, rule: rules.reduce(stricter), reason: NO_USD_PRICE, rollingTotalUsd: null } };
  }
  const limited =
    orderLimit(w, valueUsd) ??
    dailyLimit(w, create.kind, w.totals, valueUsd) ??
    (w.transferTotals && dailyLimit(w, "transfer", w.transferTotals, valueUsd));
  if (limited) return { refuse: { problem: limited, action: "limit.refused" } };
  const guard = guardOf(w);
  if (guard && "problem" in guard) return { refuse: { problem: guard.problem, action: "price_guard.confirm_asked" } };
  const refused = fundsRefusal(facts);
  if (refused) return refused;
  const terms: Terms = { valueUsd, ...(guard && { guardConfirmed: guard.confirmed }) };
  if (w.approved) return { send: terms };
  return fourEyes(w, terms, valueUsd);
}

/**
 * Four eyes: the rule the person's rolling 24 h total of what they sent without approval reaches,
 * this create included. An order settling into another profile is weighed against the order rules
 * with the order total and the transfer rules with the transfer total; the stricter rule holds it.
 */
function fourEyes(w: Weighing, terms: Terms, valueUsd: string): Verdict {
  const rules = w.facts.policy.approval_rules;
  const weighed = [{ kind: w.create.kind, totals: w.totals }];
  if (w.transferTotals) weighed.push({ kind: "transfer", totals: w.transferTotals });
  const reached = weighed.flatMap(({ kind, totals }) => {
    const total = addDecimal(totals.unapproved24h, valueUsd);
    const rule = approvalRuleFor(rules, kind, total);
    return rule ? [{ rule, total }] : [];
  });
  if (reached.length === 0) return { send: terms };
  const { rule, total } = reached.reduce((a, b) => (stricter(a.rule, b.rule) === a.rule ? a : b));
  const alone = approvalRuleFor(rules, rule.kind, valueUsd);
  const rolling = alone ? null : rollingReason(rule.kind, total, rule, w.transferTotals !== undefined);
  const reason = w.transferTotals ? elsewhereReason(rule, rolling) : rolling;
  return { hold: { ...terms, rule, reason, rollingTotalUsd: total } };
}

/**
 * Of two rules that both hold a create, the stricter: the one needing more approvals; on a tie,
 * the transfer rule, what an order settling into another profile would otherwise slip past.
 */
const stricter = (a: ApprovalRule, b: ApprovalRule): ApprovalRule =>
  a.approvals_needed !== b.approvals_needed
    ? a.approvals_needed > b.approvals_needed
      ? a
      : b
    : b.kind === "transfer"
      ? b
      : a;

/** Why an order settling into another profile waits: it is a transfer too, and which rule held it. */
function elsewhereReason(rule: ApprovalRule, rolling: string | null): string {
  const held = `It settles into another profile, so it moves money as a transfer does and is weighed as one too; the ${rule.kind} rule holds it`;
  return rolling ? `${held}. ${rolling}` : held;
}

const fundsRefusal = (facts: Facts): Verdict | undefined =>
  typeof facts.funds === "object" ? { refuse: { problem: facts.funds, action: "create.refused" } } : undefined;

/** An unpriced create waits for the lowest rule of `kind`, or one approval when there is none. */
function unpricedRule(w: Weighing, kind: CreateKind): ApprovalRule {
  return lowestRuleOf(w.facts.policy.approval_rules, kind);
}

/** The lowest rule of `kind`, or one approval within two hours when there is none: what an unpriced request waits for. */
export function lowestRuleOf(rules: readonly ApprovalRule[], kind: CreateKind): ApprovalRule {
  const mine = rules.filter((r) => r.kind === kind).sort((a, b) => compareDecimal(a.threshold_usd, b.threshold_usd));
  return mine[0] ?? { kind, threshold_usd: "0", approvals_needed: 1, open_minutes: 120 };
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

/** The person's daily limit on `kind`; an order settling into another profile meets the transfers' too. */
function dailyLimit(w: Weighing, kind: CreateKind, totals: Totals, valueUsd: string): Problem | undefined {
  const asTransfer = kind !== w.create.kind ? " An order that settles into another profile counts as a transfer." : "";
  return dailyLimitRefusal(w.facts.policy.limits, kind, totals.today, valueUsd, {
    asked: "this one",
    note: asTransfer,
  });
}

/**
 * The 403 when `valueUsd` on top of what the person sent or reserved today (`used`) passes their
 * daily limit on `kind`; undefined within it. `asked` names what is weighed ("this one", "this batch").
 */
export function dailyLimitRefusal(
  limits: Policy["limits"],
  kind: CreateKind,
  used: string,
  valueUsd: string,
  words: { asked: string; note?: string },
): Problem | undefined {
  const limit = dailyLimitOf(limits, kind);
  if (limit === null || compareDecimal(addDecimal(used, valueUsd), limit) <= 0) return undefined;
  const what = kind === "order" ? "orders" : "transfers";
  return limitRefused(
    `You may send at most ${formatUsd(limit)} of ${what} a day; ${formatUsd(usd(used))} are sent or waiting today, and ${words.asked} is ${formatUsd(usd(valueUsd))}.${words.note ?? ""}`,
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

export function rollingReason(kind: CreateKind, total: string, rule: ApprovalRule, elsewhere: boolean): string {
  const counted = kind === "transfer" && elsewhere ? ", orders that settled into another profile included," : "";
  return `With this one, the ${kind}s you sent without approval in the last 24 h${counted} come to ${formatUsd(total)}, past the ${formatUsd(rule.threshold_usd)} rule`;
}

/** A USD figure for people: cents. */
const usd = (value: string) => divideDecimalDown(value, "1", 2);
