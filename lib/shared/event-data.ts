import type { Problem } from "@/lib/spec";
import type { Approval, ApprovalKind } from "./approval";
import type { Batch } from "./batch";
import type { ParentOrder } from "./parent-order";
import type { Policy } from "./policy";

/**
 * The `data` of each event the dashboard's own changes write to the outbox (issue 30), in the
 * shapes the API already answers with. What the journal reports (`order.*`, `transfer.*`) is
 * `{order|transfer: <the service's record>, ref_id}` (lib/server/db/journal.ts).
 */

/**
 * `approval.requested` and `approval.decided`: the request as GET /api/approvals/{id} answers
 * it, at that moment: when requested, no approvals yet; when decided, its new status,
 * `decided_by`, `decided_at`, `reason` and the approvals so far (`outcome` stays null: an approved
 * request is sent after it is decided).
 */
export interface ApprovalEventData {
  approval: Approval;
}

/** `batch.completed`: the batch as GET /api/batches/{id} answers it. */
export interface BatchCompletedData {
  batch: Batch;
}

/** `parent_order.completed`: the parent as GET /api/parent-orders/{id} answers it. */
export interface ParentOrderCompletedData {
  parent_order: ParentOrder;
}

/** What the controls refused for a limit: the audit entry's detail, in one shape for every kind. */
export interface LimitRefusal {
  kind: Exclude<ApprovalKind, "policy">;
  ref_id: string;
  /** The order's or transfer's profile, the parent's; null for a batch (rows of several profiles). */
  profile_id: string | null;
  requested_by: string;
  /** The policy's field that refused it: `max_order_notional_usd`, `daily_order_notional_usd_per_user`, `daily_transfer_usd_per_user`. */
  rule: string;
  /** The limit, in USD. */
  limit: string;
  /** What was asked, in USD (to the cent, as the problem says). */
  value_usd: string;
  /** The problem's sentence. */
  detail: string;
  /** The 403 the requester got, its meta (`used`, `role`) included. */
  problem: Problem;
}

export interface LimitRefusedData {
  refusal: LimitRefusal;
}

/** `policy.changed`: the policy now in force and the one before; an approved change names its approval. */
export interface PolicyChangedData {
  policy: Policy;
  previous: Policy;
  changed_by: string;
  approval_id?: string;
  approved_by?: string;
}

/** `audit.verify_failed`: what GET /api/audit/verify answered. */
export interface AuditVerifyFailedData {
  verification: { ok: false; entries: number; broken: { seq: number; reason: string } };
}
