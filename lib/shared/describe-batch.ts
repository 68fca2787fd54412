import type { BatchStatus } from "@/lib/shared/batch";
import { formatCount, formatMoney, formatUsd } from "@/lib/shared/format";
import { compareDecimal, subtractDecimal } from "@/lib/spec/decimal";

/** "3 transfers", "1 transfer". */
export const transfersCount = (n: number): string => `${formatCount(n)} transfer${n === 1 ? "" : "s"}`;

/** "1,250.00 USD and 0.5 BTC": a batch's totals, asset by asset. */
export function totalsInWords(totals: readonly { asset: string; amount: string }[]): string {
  const each = totals.map((t) => formatMoney(t.amount, t.asset));
  return each.length <= 1 ? (each[0] ?? "nothing") : `${each.slice(0, -1).join(", ")} and ${each.at(-1)}`;
}

/**
 * The batch in a sentence an operator confirms before it is sent: "Send 3 transfers, 1,250.00
 * USD and 0.5 BTC in all, worth about 31,250.00 USD."
 */
export function describeBatch(preview: {
  rows: readonly unknown[];
  totals: readonly { asset: string; amount: string }[];
  value_usd: string | null;
}): string {
  const worth = preview.value_usd === null ? "" : `, worth about ${formatUsd(preview.value_usd)}`;
  return `Send ${transfersCount(preview.rows.length)}, ${totalsInWords(preview.totals)} in all${worth}.`;
}

/** What a sending profile lacks for the batch, or undefined when its funds cover it (or are not known). */
export function shortBy(f: { needed: string; available: string | null }): string | undefined {
  if (f.available === null || compareDecimal(f.needed, f.available) <= 0) return undefined;
  return subtractDecimal(f.needed, f.available);
}

/** A batch's status in words, as its badge and its progress say it. */
export const BATCH_STATUS_WORDS: Record<BatchStatus, string> = {
  AWAITING_APPROVAL: "Awaiting approval",
  SENDING: "Sending",
  COMPLETED: "Completed",
  CANCELLED: "Cancelled",
  REJECTED: "Rejected",
  EXPIRED: "Expired",
};

/** The rows of a batch that are done: sent, failed or skipped. */
export const doneRows = (c: { sent: number; failed: number; skipped: number }): number => c.sent + c.failed + c.skipped;
