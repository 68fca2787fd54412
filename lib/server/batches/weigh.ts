import "server-only";
import { NO_USD_PRICE } from "@/lib/shared/approval";
import { approvalRuleFor } from "@/lib/shared/policy";
import { can } from "@/lib/shared/roles";
import { addDecimal, problem } from "@/lib/spec";
import type { Totals } from "../create/controls/totals";
import {
  dailyLimitRefusal,
  lowestRuleOf,
  rollingReason,
  type HoldTerms,
  type Refusal,
} from "../create/controls/verdict";
import { fundsRefusal, type BatchFacts } from "./facts";

/**
 * The controls' verdict on a batch, weighed as a whole with the rules a single transfer meets
 * (lib/server/create/controls/verdict.ts), in the same order:
 * 1. the requester's role now may send batches;
 * 2. the batch's USD total, on top of what the person sent or reserved today, within their daily
 *    transfer limit (the batch is reserved whole);
 * 3. every sending profile holds what the batch takes from it, per asset;
 * 4. four eyes: the transfer rule that the person's rolling 24 h total of transfers sent without
 *    approval reaches, this batch included, holds it for one approval of the whole; a batch with
 *    an asset no market prices waits for the lowest transfer rule ("no USD price").
 * At an approver's send (`approved`) steps 1 to 3 are weighed again, and it is sent.
 * Pure: the caller reads the facts and the totals, and acts on the verdict.
 */
export type BatchVerdict =
  { send: { valueUsd: string } } | { hold: { valueUsd: string } & HoldTerms } | { refuse: Refusal };

export function batchVerdictOf(facts: BatchFacts, totals: Totals, approved = false): BatchVerdict {
  const { role, policy, valueUsd } = facts;
  if (!can(role, "batches:create")) {
    const detail = `The requester's role is now ${role}, which may not send batches of transfers (batches:create).`;
    return {
      refuse: {
        problem: problem(403, "Forbidden", detail, { role, action: "batches:create" }),
        action: "create.refused",
      },
    };
  }
  const limited = dailyLimitRefusal(policy.limits, "transfer", totals.today, valueUsd, { asked: "this batch" });
  if (limited) return { refuse: { problem: limited, action: "limit.refused" } };
  const short = fundsRefusal(facts.funds);
  if (short) return { refuse: { problem: short, action: "create.refused" } };
  if (approved) return { send: { valueUsd } };
  if (facts.unpriced.length > 0) {
    const rule = lowestRuleOf(policy.approval_rules, "transfer");
    return { hold: { valueUsd, rule, reason: NO_USD_PRICE, rollingTotalUsd: null } };
  }
  const total = addDecimal(totals.unapproved24h, valueUsd);
  const rule = approvalRuleFor(policy.approval_rules, "transfer", total);
  if (!rule) return { send: { valueUsd } };
  const alone = approvalRuleFor(policy.approval_rules, "transfer", valueUsd);
  const reason = alone ? null : rollingReason("transfer", total, rule, false);
  return { hold: { valueUsd, rule, reason, rollingTotalUsd: total } };
}
