import type { Problem } from "@/lib/spec/problem";

/**
 * An entry of the journal as `GET /api/activity` serves it: one create (an order or an internal
 * transfer) or one order cancel the desk sent through the dashboard, written before it was sent
 * and completed with the outcome. Shared by the back end that writes it and the pages that show it.
 */
export type JournalKind = "order" | "transfer" | "cancel";
/** "declined": never sent, the person answered "don't send" to "You sent this N s ago. Send another?". */
export type JournalStatus = "pending" | "succeeded" | "failed" | "declined";

export interface JournalEntry {
  id: string;
  kind: JournalKind;
  ref_id: string;
  user_email: string;
  user_role: string;
  /** The order's profile (of a create or a cancel), or the transfer's sending profile. */
  profile_id: string;
  /** The transfer's receiving profile; null for orders. */
  to_profile_id: string | null;
  /**
   * The request as sent, ref_id included; for a cancel, what was cancelled (`CancelRequest`:
   * the ref_id is the journal's own, the service is sent none).
   */
  request: Record<string, unknown>;
  status: JournalStatus;
  created_at: string;
  completed_at: string | null;
  http_status: number | null;
  latency_ms: number | null;
  /** The service's record, when the create succeeded. */
  record: unknown;
  /** The problem, when it failed. */
  problem: Problem | null;
  /** The resulting order or transfer id; the cancelled order's id. */
  result_id: string | null;
  /** The ref_id of the earlier create this one repeats, when the person was asked: sent anyway, or declined. */
  duplicate_of: string | null;
  /**
   * The four eyes a create was sent under, when it waited for approval: the request and who
   * approved it when (GET /api/activity adds it; absent for a create sent without approval).
   */
  approval?: EntryApproval;
}

export interface EntryApproval {
  id: string;
  approved_by: { by: string; role: string; at: string }[];
}

/** What a cancel entry records: the order, and what was asked when the dashboard placed it. */
export interface CancelRequest {
  order_id: string;
  profile_id: string;
  /** The create's request from the journal; absent for an order placed outside the dashboard. */
  order?: Record<string, unknown>;
}
