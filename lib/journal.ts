import type { Problem } from "@/lib/spec/problem";

/**
 * An entry of the journal as `GET /api/activity` serves it: one create (an order or an internal
 * transfer) the desk sent through the dashboard, written before it was sent and completed with
 * the outcome. Shared by the back end that writes it and the pages that show it.
 */
export type JournalKind = "order" | "transfer";
/** "declined": never sent, the person answered "don't send" to "You sent this N s ago. Send another?". */
export type JournalStatus = "pending" | "succeeded" | "failed" | "declined";

export interface JournalEntry {
  id: string;
  kind: JournalKind;
  ref_id: string;
  user_email: string;
  user_role: string;
  /** The order's profile, or the transfer's sending profile. */
  profile_id: string;
  /** The transfer's receiving profile; null for orders. */
  to_profile_id: string | null;
  /** The request as sent, ref_id included. */
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
  /** The resulting order or transfer id. */
  result_id: string | null;
  /** The ref_id of the earlier create this one repeats, when the person was asked: sent anyway, or declined. */
  duplicate_of: string | null;
}
