import type { Approval } from "@/lib/client/approval-feed";
import { formatAmount } from "@/lib/shared/format";
import { compareDecimal, divideDecimalHalfUp, multiplyDecimal, subtractDecimal } from "@/lib/spec/decimal";

/**
 * A request's state in the desk's words, the same on the card, in its history and in the
 * notice: "Approved and sent: order SUBMITTED", "Rejected by approver@example.com: over budget".
 */
export function decisionWords(a: Approval): string {
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
      return approvedWords(a);
  }
}

function approvedWords(a: Approval): string {
  const outcome = a.outcome;
  if (outcome === null) return a.kind === "policy" ? "Approved; applying it…" : "Approved; sending it…";
  const body = outcome.body as { id?: string; status?: string; detail?: string } | null;
  const detail = body?.detail ?? `the answer was ${outcome.status}`;
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
