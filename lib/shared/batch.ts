/**
 * A batch of internal transfers as the dashboard's API answers it (GET /api/batches/{id}):
 * shared by the back end, which builds it, and the Batches page, which shows it.
 */
export type BatchStatus = "AWAITING_APPROVAL" | "SENDING" | "COMPLETED" | "CANCELLED" | "REJECTED" | "EXPIRED";
export type BatchRowStatus = "WAITING" | "SENT" | "FAILED" | "SKIPPED";

export interface BatchRowView {
  row: number;
  from_profile_id: string;
  to_profile_id: string;
  asset: string;
  amount: string;
  ref_id: string;
  status: BatchRowStatus;
  transfer_id?: string;
  transfer_status?: string;
  /** Why the row failed: the service's problem, or the controls'. */
  problem?: unknown;
}

export interface Batch {
  id: string;
  ref_id: string;
  status: BatchStatus;
  requested_by: string;
  created_at: string;
  approval_id: string | null;
  counts: Record<"waiting" | "sent" | "failed" | "skipped", number>;
  /** Per asset: the rows' sum, and its worth in USD when asked ("" when no market prices it). */
  totals: { asset: string; amount: string; value_usd: string }[];
  rows: BatchRowView[];
}

/** A batch whose rows may still go: the ones a cancel can stop. */
export const isOpenBatch = (status: BatchStatus): boolean => status === "AWAITING_APPROVAL" || status === "SENDING";
