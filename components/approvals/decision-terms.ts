import { describeParentOrder, type ParentWordsOf } from "@/components/orders/describe-parent-order";
import { orderWords, type OrderAsk } from "@/components/notices/notice-words";
import { moved } from "@/components/transfers/describe-transfer";
import type { Approval } from "@/lib/shared/approval";
import { compareDecimal } from "@/lib/spec/decimal";
import type { CreateInternalTransferRequest } from "@/lib/spec/transfer";
import { batchTerms } from "./batch-words";

/**
 * What an approver decides, restated beside the button that decides it (issue 26): the amount
 * and who it moves between, by nickname, so the decision is made on what is read at that moment.
 */

type Nickname = (id: string) => string;

/**
 * "45,000.00 USD from Treasury to Operations reserve", "an order to buy 2 BTC on BTC/USD from
 * Trading", "3 internal transfers totalling 18,000.00 USD from Treasury (batch b-7)".
 */
export function decisionTerms(a: Approval, nickname: Nickname): string {
  if (a.kind === "policy") return "this change to the desk's policy";
  if (a.kind === "batch") return batchTerms(a, nickname);
  if (a.kind === "parent_order") {
    const words = describeParentOrder(a.request as unknown as ParentWordsOf);
    return `a TWAP parent order to ${words.replace(/^./, (c) => c.toLowerCase())}, from ${nickname(a.profile_id)}`;
  }
  if (a.kind === "transfer") {
    const t = a.request as unknown as CreateInternalTransferRequest;
    return moved(t.amount, t.asset, { from: nickname(t.from_profile_id), to: nickname(t.to_profile_id) });
  }
  return `an order to ${orderWords(a.request as unknown as OrderAsk, nickname(a.profile_id))}`;
}

/** The approval that sends it (or applies a policy), or one of several it still needs. */
export const approveVerb = (a: Approval): string =>
  a.approvals_needed - a.approvals.length > 1
    ? "Approve"
    : a.kind === "policy"
      ? "Approve and apply"
      : "Approve and send";

/** The question the confirm step asks: "Approve and send 45,000.00 USD from Treasury to Operations reserve?" */
export const approveQuestion = (a: Approval, nickname: Nickname): string =>
  `${approveVerb(a)} ${decisionTerms(a, nickname)}?`;

/** What approving does, read beside the buttons before any is pressed. */
export function approveEffect(a: Approval, nickname: Nickname): string {
  const terms = decisionTerms(a, nickname);
  const left = a.approvals_needed - a.approvals.length;
  const does = a.kind === "policy" ? "applies" : "sends";
  if (left > 1)
    return `Approving adds one of the ${left} approvals still needed for ${terms}; the last one ${does} ${a.kind === "batch" ? "them" : "it"}.`;
  return `Approving ${does} ${terms}.`;
}

/**
 * Whether approving asks to confirm first: a create worth the rule's threshold or more, one no
 * market prices (its worth unknown), and a policy change. A create held only because the
 * requester's 24 h total passed the threshold is sent on the armed click.
 */
export function needsConfirming(a: Approval): boolean {
  if (a.rule.kind === "policy" || a.value_usd === null) return true;
  return compareDecimal(a.value_usd, a.rule.threshold_usd) >= 0;
}
