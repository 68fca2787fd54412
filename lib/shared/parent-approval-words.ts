import type { Approval } from "@/lib/shared/approval";
import { formatAmount, formatCount, formatMoney } from "@/lib/shared/format";
import { nameProfiles, type Nickname } from "@/lib/shared/named-profiles";
import type { ParentOrder, ParentOrderAsked } from "@/lib/shared/parent-order";
import { describeParentOrder, durationWords, parentOrderPhrase } from "@/lib/shared/parent-order-words";
import { isMarket, MARKET_DETAILS } from "@/lib/spec/markets";

/**
 * A held TWAP parent order (an approval of kind "parent_order": one approval for all its children)
 * in the desk's words, for its card, its restatement at the button, its line in the list and its
 * notices. The sentence itself is the ticket's (lib/shared/parent-order-words.ts).
 */

/** What an approval of kind "parent_order" holds: the parent's request, and the parent it made. */
export type ParentApprovalRequest = ParentOrderAsked & { parent_order_id: string };

export const parentRequestOf = (a: Approval): ParentApprovalRequest => a.request as unknown as ParentApprovalRequest;

/** The card's title. */
export const PARENT_ORDER_TITLE = "TWAP parent order";

/** The request in a sentence: "TWAP: Buy 0.2 BTC over 1 minute in 6 slices, never above 61,000.00 USD, from Trading." */
export const describeParentApproval = (a: Approval, nickname: Nickname): string =>
  `TWAP: ${describeParentOrder(parentRequestOf(a), nickname)}.`;

/**
 * What an approver decides, restated at the button: "a TWAP order to buy 0.2 BTC over 1 minute
 * in 6 slices, never above 61,000.00 USD, from Trading".
 */
export const parentTerms = (a: Approval, nickname: Nickname): string =>
  `a TWAP order to ${parentOrderPhrase(parentRequestOf(a), nickname)}`;

/** The held request named in a notice: "TWAP order to buy 0.2 BTC over 1 minute in 6 slices, …". */
export const parentHeldWords = (a: Approval, nickname: Nickname): string =>
  `TWAP order to ${parentOrderPhrase(parentRequestOf(a), nickname)}`;

/** "6 slices over 1 minute": its schedule. */
export const scheduleWords = (r: Pick<ParentOrderAsked, "slices" | "duration_seconds">): string =>
  `${formatCount(r.slices)} slices over ${durationWords(r.duration_seconds)}`;

/** A refusal at send in the desk's words: the problem's detail (or title), profiles by nickname. */
export function parentRefusalWords(body: unknown, nickname: Nickname = (id) => id): string {
  const p = (body ?? {}) as { detail?: string; title?: string; status?: number };
  return nameProfiles(
    p.detail ?? p.title ?? (p.status ? `the answer was ${p.status}` : "no reason was given"),
    nickname,
  );
}

/**
 * What came of approving a parent: it started working (its children go one slice at a time, on
 * its page), or, weighed again at send, it was refused, and then no child order was sent.
 */
export function parentApprovedWords(a: Approval, nickname?: Nickname): string {
  if (a.outcome === null) return "Approved; starting the parent order…";
  if (a.outcome.status >= 300)
    return `Approved, not started: checked again at send, it was refused, so no child order was sent: ${parentRefusalWords(a.outcome.body, nickname)}`;
  return `Approved; the parent order started working: ${scheduleWords(parentRequestOf(a))}`;
}

/** "0.1 BTC": an amount of the parent's base asset. */
const baseMoney = (r: ParentOrderAsked, amount: string): string =>
  isMarket(r.market) ? formatMoney(amount, MARKET_DETAILS[r.market].base_asset) : formatAmount(amount);

/**
 * Where the parent stands, said beside its approval: nothing goes before it is approved; once
 * approved and working, its fills and slices as the parent counts them now ("Working: 0.1 BTC of
 * 0.2 BTC filled, 3 of 6 slices sent"); when it was not approved, or refused at send, that no
 * child order was sent. Undefined while the parent is being read.
 */
export function parentProgressWords(
  a: Approval,
  parent: Pick<ParentOrder, "status" | "filled_base" | "children"> | undefined,
): string | undefined {
  const r = parentRequestOf(a);
  if (a.status === "PENDING") return "No child order is sent before it is approved.";
  if (a.status !== "APPROVED" || (a.outcome !== null && a.outcome.status >= 300)) return "No child order was sent.";
  if (a.outcome === null) return "Starting…";
  if (!parent) return undefined;
  const filled = `${baseMoney(r, parent.filled_base)} of ${baseMoney(r, r.base_amount)} filled`;
  const sent = parent.children.filter((c) => c.sent_at !== null).length;
  const slices = `${formatCount(sent)} of ${formatCount(r.slices)} slices sent`;
  switch (parent.status) {
    case "WORKING":
      return `Working: ${filled}, ${slices}.`;
    case "PAUSED":
      return `Paused: ${filled}, ${slices}.`;
    case "COMPLETED":
      return `Completed: ${filled}.`;
    case "CANCELLED":
      return `Cancelled: ${filled}, ${slices}.`;
    case "EXPIRED":
    case "REJECTED":
      return sent === 0 ? "No child order was sent." : `Ended ${parent.status}: ${filled}, ${slices}.`;
    default:
      return "Starting…";
  }
}
