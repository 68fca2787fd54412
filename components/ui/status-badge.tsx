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
  | "SKIPPED";

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
};

const TITLES: Partial<Record<BadgeStatus, string>> = {
  EXPIRED: "Cancelled by the service when its good-till-time expiry came",
};

/** A status in words and colour; the colour is never the only signal. */
export function StatusBadge({ status, title }: { status: BadgeStatus; title?: string }) {
  return (
    <span
      title={title ?? TITLES[status]}
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[status]}`}
    >
      {status.replace(/_/g, " ")}
    </span>
  );
}

export function SideBadge({ side }: { side: "BUY" | "SELL" }) {
  return <span className={`font-semibold ${side === "BUY" ? "text-buy" : "text-sell"}`}>{side}</span>;
}
