import { compareDecimal } from "@/lib/spec/decimal";
import type { Approval, ApprovalKind } from "./approval";

/**
 * The Approvals page's filter and sort, as one pure step over what the list read: by kind and
 * by requester (any part of the email or name), then newest first, oldest first, expiring
 * soonest, or largest value first (an unpriced request or a policy change last).
 */
export const APPROVAL_SORTS = ["newest", "oldest", "expiring", "largest"] as const;
export type ApprovalSort = (typeof APPROVAL_SORTS)[number];

export const APPROVAL_SORT_LABELS: Record<ApprovalSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  expiring: "Expiring soonest",
  largest: "Largest first",
};

export interface ApprovalView {
  kind?: ApprovalKind | "";
  /** Any part of the requester's email or name, in any case. */
  who?: string;
  sort?: ApprovalSort | "";
}

const byIso = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compareBy(sort: ApprovalSort): (a: Approval, b: Approval) => number {
  switch (sort) {
    case "oldest":
      return (a, b) => byIso(a.created_at, b.created_at);
    case "expiring":
      return (a, b) => byIso(a.expires_at, b.expires_at);
    case "largest":
      return (a, b) => {
        if (a.value_usd === null || b.value_usd === null)
          return (a.value_usd === null ? 1 : 0) - (b.value_usd === null ? 1 : 0);
        return compareDecimal(b.value_usd, a.value_usd);
      };
    default:
      return (a, b) => byIso(b.created_at, a.created_at);
  }
}

export function viewOfApprovals(items: readonly Approval[], view: ApprovalView): Approval[] {
  const who = view.who?.trim().toLowerCase() ?? "";
  return items
    .filter((a) => !view.kind || a.kind === view.kind)
    .filter((a) => !who || `${a.requested_by} ${a.requested_name}`.toLowerCase().includes(who))
    .sort(compareBy(view.sort || "newest"));
}
