import type { Approval } from "@/lib/client/approval-feed";
import { formatAmount, formatUsd } from "@/lib/shared/format";
import { nameProfiles, type Nickname } from "@/lib/shared/named-profiles";
import { compareDecimal, divideDecimalHalfUp, multiplyDecimal, subtractDecimal } from "@/lib/spec/decimal";
import { batchApprovedWords } from "@/lib/shared/batch-approval-words";
import { parentApprovedWords } from "@/lib/shared/parent-approval-words";

/**
 * A request's state in the desk's words, the same on the card, in its history and in the
 * notice: "Approved and sent: order SUBMITTED", "Rejected by approver@example.com: over budget".
 * With `nickname`, a refusal's words name profiles by nickname instead of id.
 */
export function decisionWords(a: Approval, nickname?: Nickname): string {
  switch (a.status) {
    case "PENDING": {
      const left = a.approvals_needed - a.approvals.length;
      return a.approvals.length === 0
        ? "Waiting for a decision"
        : `Approved by ${a.approvals.map((v) => v.by).join(" and ")}; waiting for ${left === 1 ? "one more approval" : `${left} more approvals`}`;
    }
    case "REJECTED":
      return `Rejected by ${a.decided_by}: ${a.reason}`;
    case "WITHDRAWN":
      return `Withdrawn by ${a.decided_by}: never sent`;
    case "EXPIRED":
      return "Expired before anyone decided it: never sent";
    case "APPROVED":
      return approvedWords(a, nickname);
  }
}

function approvedWords(a: Approval, nickname: Nickname | undefined): string {
  if (a.kind === "batch") return batchApprovedWords(a, nickname);
  if (a.kind === "parent_order") return parentApprovedWords(a, nickname);
  const outcome = a.outcome;
  if (outcome === null) return a.kind === "policy" ? "Approved; applying it…" : "Approved; sending it…";
  const body = outcome.body as { id?: string; status?: string; detail?: string } | null;
  const said = body?.detail ?? `the answer was ${outcome.status}`;
  const detail = nickname ? nameProfiles(said, nickname) : said;
  if (a.kind === "policy") {
    return outcome.status < 300
      ? "Approved and applied: it is the policy in force"
      : `Approved, not applied: ${detail}`;
  }
  if (outcome.sent === false) return `Approved, not sent: checked again at send, it was refused: ${detail}`;
  if (outcome.status >= 300) return `Approved and sent; the service refused it: ${detail}`;
  return `Approved and sent: ${a.kind} ${body?.status ?? "accepted"}`;
}

/** Green for a request sent or applied, red for a refusal or a rejection, plain otherwise. */
export function decisionTone(a: Approval): "success" | "error" | "info" {
  if (a.status === "REJECTED") return "error";
  if (a.status !== "APPROVED" || a.outcome === null) return "info";
  return a.outcome.status < 300 ? "success" : "error";
}

/** "98.46% below the mid", "at the mid". */
export function distanceWords(price: string, mid: string): string {
  const sign = compareDecimal(price, mid);
  if (sign === 0) return "at the mid";
  // Divided as a positive amount: the decimal helpers round a quotient's magnitude.
  const gap = sign < 0 ? subtractDecimal(mid, price) : subtractDecimal(price, mid);
  const percent = divideDecimalHalfUp(multiplyDecimal(gap, "100"), mid, 2);
  return `${formatAmount(percent, { min: 2, max: 2 })}% ${sign < 0 ? "below" : "above"} the mid`;
}

/**
 * Why it waits: the rule, and the reason when the rule alone does not say. The reason was written
 * for the requester when they asked ("the transfers you sent without approval"); anyone else
 * reads it with the requester named ("the transfers Oakley Ops sent without approval").
 */
export function ruleWords(a: Approval, mine: boolean): string {
  if (a.rule.kind === "policy") return "a change that loosens the controls, by an approver or another admin";
  // The rule's own kind: an order settling into another profile may be held by a transfer rule.
  const rule = `the rule for ${a.rule.kind === "order" ? "orders" : "transfers"} from ${formatUsd(a.rule.threshold_usd)}`;
  if (!a.hold_reason) return rule;
  return `${rule}: ${mine ? a.hold_reason : a.hold_reason.replace(/\byou sent\b/g, `${a.requested_name} sent`)}`;
}
