import type { ApprovalRule, CreateKind } from "./policy";

/**
 * A create held for four eyes, as `GET /api/approvals/{id}` answers it (and a create that
 * needs approval answers, with 202, as `{"approval": …}`). Shared by the back end that keeps
 * it and the pages that show it.
 */

export const APPROVAL_STATUSES = ["PENDING", "APPROVED", "REJECTED", "EXPIRED", "WITHDRAWN"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface Approval {
  id: string;
  status: ApprovalStatus;
  kind: CreateKind;
  /** The order's or the transfer's request, ref_id included; an order's profile beside it. */
  request: Record<string, unknown>;
  profile_id: string;
  value_usd: string;
  rule: ApprovalRule;
  requested_by: string;
  requested_name: string;
  requested_role: string;
  created_at: string;
  expires_at: string;
  approvals_needed: number;
  approvals: { by: string; role: string; at: string }[];
  decided_at: string | null;
  decided_by: string | null;
  reason: string | null;
  /** What the service answered when it was sent: its status and the record or problem. */
  outcome: { status: number; body: unknown } | null;
}

/** The answer of a create that waits for approval (202). */
export interface Held {
  approval: Approval;
}

export const isHeld = (answer: unknown): answer is Held =>
  typeof answer === "object" && answer !== null && "approval" in answer;
