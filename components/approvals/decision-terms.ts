import { orderWords, type OrderAsk } from "@/components/notices/notice-words";
import { moved } from "@/lib/shared/describe-transfer";
import type { Approval } from "@/lib/shared/approval";
import { compareDecimal } from "@/lib/spec/decimal";
import type { CreateInternalTransferRequest } from "@/lib/spec/transfer";
import { batchTerms } from "@/lib/shared/batch-approval-words";
import { parentTerms } from "@/lib/shared/parent-approval-words";

/**
 * What an approver decides, restated beside the button that decides it (issue 26): the amount
 * and who it moves between, by nickname, so the decision is made on what is read at that moment.
 */

type Nickname = (id: string) => string;

/**
 * "45,000.00 USD from Treasury to Operations reserve", "an order to buy 2 BTC on BTC/USD from
 * Trading", "3 internal transfers totalling 18,000.00 USD from Treasury (batch b-7)", "a TWAP order
 * to buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading".
 */
export function decisionTerms(a: Approval, nickname: Nickname): string {
  if (a.kind === "policy") return "this change to the desk's policy";
  if (a.kind === "batch") return batchTerms(a, nickname);
  if (a.kind === "parent_order") return parentTerms(a, nickname);
  if (a.kind === "transfer") {
    const t = a.request as unknown as CreateInternalTransferRequest;
    return moved(t.amount, t.asset, { from: nickname(t.from_profile_id), to: nickname(t.to_profile_id) });
  }
  return `an order to ${orderWords(a.request as unknown as OrderAsk, nickname(a.profile_id))}`;
}

/** What the last approval does: sends a create, applies a policy, starts a parent order working. */
const lastDoes = (a: Approval): "applies" | "starts" | "sends" =>
  a.kind === "policy" ? "applies" : a.kind === "parent_order" ? "starts" : "sends";

const VERBS = { applies: "Approve and apply", starts: "Approve and start", sends: "Approve and send" } as const;

/** The approval that sends it (or applies a policy, or starts a parent order), or one of several it still needs. */
export const approveVerb = (a: Approval): string =>
  a.approvals_needed - a.approvals.length > 1 ? "Approve" : VERBS[lastDoes(a)];

/** The question the confirm step asks: "Approve and send 45,000.00 USD from Treasury to Operations reserve?" */
export const approveQuestion = (a: Approval, nickname: Nickname): string =>
  `${approveVerb(a)} ${decisionTerms(a, nickname)}?`;

/** What approving does, read beside the buttons before any is pressed. */
export function approveEffect(a: Approval, nickname: Nickname): string {
  const terms = decisionTerms(a, nickname);
  const left = a.approvals_needed - a.approvals.length;
  const does = lastDoes(a);
  if (left > 1)
    return `Approving adds one of the ${left} approvals still needed for ${terms}; the last one ${does} ${a.kind === "batch" ? "them" : "it"}.`;
  if (a.kind === "parent_order")
    return `Approving starts ${terms}: its children are sent one slice at a time, none past the cap.`;
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
