import type { BatchFunds } from "@/lib/shared/batch";
import type { CreateKind } from "@/lib/shared/policy";

/**
 * What an approver reads beside a held create before deciding it, as
 * `GET /api/approvals/{id}/context` answers it (approvers only, read-only): what the request
 * spends and what its profile has available now, and the requester's sends of its kind against
 * their limits. Null for a policy change, which spends nothing. The market now comes from the
 * page's own tickers, which stay live.
 */
export interface ApprovalContext {
  spend: ApprovalSpend | null;
  requester: RequesterSends | null;
  /**
   * For an order that settles into another profile, weighed as a transfer too: the requester's
   * transfers against the transfer limit, which the send is checked against as well.
   */
  requester_transfers?: RequesterSends;
  /** For a batch: what it takes from each sending profile, per asset, beside what the profile has available now. */
  batch_funds?: BatchFunds[];
}

export interface ApprovalSpend {
  profile_id: string;
  asset: string;
  amount: string;
  /** What the profile has available in `asset` now; null when the service could not say. */
  available: string | null;
}

export interface RequesterSends {
  email: string;
  kind: CreateKind;
  /** Sent since 00:00 UTC, approved or not, and what else waits for approval: this request left out. */
  today_usd: string;
  /** The daily limit on this kind for one person; null for none. */
  daily_limit_usd: string | null;
  /** What they sent without approval in the last 24 h: what the four-eyes threshold counts. */
  unapproved_24h_usd: string;
  /** The requester's role's largest order; null for none (and for transfers). */
  max_order_usd: string | null;
}
