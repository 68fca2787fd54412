import type { OrderStatus, TransferStatus } from "@/lib/spec/enums";

const TONES: Record<OrderStatus | TransferStatus | "succeeded" | "failed" | "pending" | "declined", string> = {
  PENDING_SUBMISSION: "bg-slate-100 text-slate-700",
  SUBMITTED: "bg-brand-soft text-brand",
  OPEN: "bg-brand-soft text-brand",
  FILLED: "bg-buy-soft text-buy",
  CANCELLED: "bg-slate-200 text-slate-700",
  REJECTED: "bg-sell-soft text-sell",
  PENDING: "bg-warn-soft text-warn",
  COMPLETED: "bg-buy-soft text-buy",
  FAILED: "bg-sell-soft text-sell",
  pending: "bg-warn-soft text-warn",
  succeeded: "bg-buy-soft text-buy",
  failed: "bg-sell-soft text-sell",
  declined: "bg-slate-200 text-slate-700",
};

/** A status in words and colour; the colour is never the only signal. */
export function StatusBadge({ status }: { status: keyof typeof TONES }) {
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[status]}`}>
      {status.replace(/_/g, " ")}
    </span>
  );
}

export function SideBadge({ side }: { side: "BUY" | "SELL" }) {
  return <span className={`font-semibold ${side === "BUY" ? "text-buy" : "text-sell"}`}>{side}</span>;
}
