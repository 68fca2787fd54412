import type { OrderStatus, TransferStatus } from "@/lib/spec/enums";

/** What a badge may show: the service's statuses, the journal's, and an expired GTT order. */
export type BadgeStatus =
  | OrderStatus
  | TransferStatus
  | "EXPIRED"
  | "succeeded"
  | "failed"
  | "pending"
  | "declined"
  // An approval request's own (four eyes).
  | "APPROVED"
  | "WITHDRAWN"
  // A batch of transfers (issue 27) and its rows.
  | "AWAITING_APPROVAL"
  | "SENDING"
  | "WAITING"
  | "SENT"
  | "SKIPPED"
  // A TWAP parent order (issue 29) and its slices.
  | "WORKING"
  | "PAUSED"
  | "SCHEDULED"
  | "MERGED"
  // A webhook's delivery (issue 30): PENDING and FAILED as above.
  | "DELIVERED";

const TONES: Record<BadgeStatus, string> = {
  PENDING_SUBMISSION: "bg-slate-100 text-slate-700",
  SUBMITTED: "bg-brand-soft text-brand",
  OPEN: "bg-brand-soft text-brand",
  FILLED: "bg-buy-soft text-buy",
  CANCELLED: "bg-slate-200 text-slate-700",
  // Dashed: told apart from a cancel by its outline too, not by its word alone.
  EXPIRED: "border border-dashed border-slate-400 bg-surface text-slate-700",
  REJECTED: "bg-sell-soft text-sell",
  PENDING: "bg-warn-soft text-warn",
  COMPLETED: "bg-buy-soft text-buy",
  FAILED: "bg-sell-soft text-sell",
  pending: "bg-warn-soft text-warn",
  succeeded: "bg-buy-soft text-buy",
  failed: "bg-sell-soft text-sell",
  declined: "bg-slate-200 text-slate-700",
  APPROVED: "bg-buy-soft text-buy",
  WITHDRAWN: "bg-slate-200 text-slate-700",
  AWAITING_APPROVAL: "bg-warn-soft text-warn",
  SENDING: "bg-brand-soft text-brand",
  WAITING: "bg-slate-100 text-slate-700",
  SENT: "bg-buy-soft text-buy",
  SKIPPED: "bg-slate-200 text-slate-700",
  WORKING: "bg-brand-soft text-brand",
  // Dashed, like an expiry: a pause is told from a working parent by its outline too.
  PAUSED: "border border-dashed border-warn bg-warn-soft text-warn",
  SCHEDULED: "bg-slate-100 text-slate-700",
  MERGED: "bg-slate-200 text-slate-700",
  DELIVERED: "bg-buy-soft text-buy",
};

const TITLES: Partial<Record<BadgeStatus, string>> = {
  EXPIRED: "Cancelled by the service when its good-till-time expiry came",
  MERGED: "Its time passed while nothing could send it: its share went with the next slice",
};

/** Whether `status` is one a badge knows; another (a code the service added) is shown plain. */
export const isBadgeStatus = (status: string): status is BadgeStatus => status in TONES;

/** A status in words and colour; the colour is never the only signal. */
export function StatusBadge({ status, title }: { status: BadgeStatus; title?: string }) {
  return (
    <span
      title={title ?? TITLES[status]}
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[status] ?? PLAIN}`}
    >
      {status.replace(/_/g, " ")}
    </span>
  );
}

const PLAIN = "bg-slate-100 text-slate-700";

export function SideBadge({ side }: { side: "BUY" | "SELL" }) {
  return <span className={`font-semibold ${side === "BUY" ? "text-buy" : "text-sell"}`}>{side}</span>;
}
