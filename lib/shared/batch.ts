/**
 * A batch of internal transfers as the dashboard's API answers it (GET /api/batches/{id}):
 * shared by the back end, which builds it, and the Batches page, which shows it.
 */
export const BATCH_STATUSES = [
  "AWAITING_APPROVAL",
  "SENDING",
  "COMPLETED",
  "CANCELLED",
  "REJECTED",
  "EXPIRED",
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
export const BATCH_ROW_STATUSES = ["WAITING", "SENT", "FAILED", "SKIPPED"] as const;
export type BatchRowStatus = (typeof BATCH_ROW_STATUSES)[number];

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

/** What GET /api/events pushes as a batch's rows are sent (event `batch`): the batch without its rows. */
export type BatchEvent = Omit<Batch, "rows">;

/** A batch whose rows may still go: the ones a cancel can stop. */
export const isOpenBatch = (status: BatchStatus): boolean => status === "AWAITING_APPROVAL" || status === "SENDING";

/** What a batch takes from one sending profile in one asset, beside what the profile has available (null: the service could not say). */
export interface BatchFunds {
  profile_id: string;
  asset: string;
  needed: string;
  available: string | null;
}

/**
 * What an approval of kind "batch" holds as its request: enough for the approver's card to
 * show the whole without reading every row (GET /api/batches/{batch_id} has them all).
 */
export interface BatchApprovalRequest {
  ref_id: string;
  batch_id: string;
  /** How many transfers. */
  rows: number;
  /** Per asset: the rows' sum and its worth in USD ("" when no market prices it). */
  totals: { asset: string; amount: string; value_usd: string }[];
  /** Per sending profile and asset: what the batch takes from it. */
  outgoing: { profile_id: string; asset: string; amount: string }[];
  /** The largest rows by worth in USD (by amount when unpriced), at most BATCH_LARGEST_ROWS. */
  largest: {
    row: number;
    from_profile_id: string;
    to_profile_id: string;
    asset: string;
    amount: string;
    value_usd: string;
  }[];
}

/** How many of a batch's largest rows its approval shows. */
export const BATCH_LARGEST_ROWS = 5;

/**
 * The review's dry run of a batch (POST /api/batches/preview): its rows read and checked, and
 * when none is refused, the controls' verdict as if it were sent now, its totals and each
 * sending profile's funds. Nothing is stored.
 */
export interface BatchPreview {
  ref_id: string;
  rows: import("./batch-file").BatchRow[];
  /** Every refused field of every row; the batch would be refused when any. */
  errors: import("./batch-file").BatchError[];
  totals: { asset: string; amount: string; value_usd: string }[];
  /** The priced rows' worth in USD. */
  value_usd: string | null;
  funds: BatchFunds[];
  /** What the controls would do; null when the file is refused. */
  outcome: "send" | "hold" | "refuse" | null;
  problem?: import("@/lib/spec").Problem;
  hold?: { rule: import("./policy").ApprovalRule; reason: string | null; approvers: string[] };
}
