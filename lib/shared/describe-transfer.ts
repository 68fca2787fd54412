import { formatMoney } from "@/lib/shared/format";
import type { CreateInternalTransferRequest, Transfer } from "@/lib/spec/transfer";

/** The transfer's two profiles by nickname. */
export interface TransferNames {
  from: string;
  to: string;
}

/** "100.00 EUR from Treasury to Settlement": what a transfer moves, and between which profiles. */
export const moved = (amount: string, asset: string, names: TransferNames) =>
  `${formatMoney(amount, asset)} from ${names.from} to ${names.to}`;

/** The transfer in a sentence an operator confirms before it is sent. */
export const describeTransfer = (r: CreateInternalTransferRequest, names: TransferNames): string =>
  `Move ${moved(r.amount, r.asset, names)}.`;

const VERBS = { PENDING: "Sending", COMPLETED: "Sent", FAILED: "Not sent:" } as const;

/** What happened to it, with its status: "Sent 100 EUR from Treasury to Settlement — COMPLETED". */
export const describeTransferOutcome = (t: Transfer, names: TransferNames): string =>
  `${VERBS[t.status]} ${moved(t.amount, t.asset, names)} — ${t.status}`;
