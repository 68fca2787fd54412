import "server-only";
import { BATCH_LARGEST_ROWS, type BatchApprovalRequest } from "@/lib/shared/batch";
import { batchTotals, type BatchRead } from "@/lib/shared/batch-file";
import { compareDecimal } from "@/lib/spec";
import type { BatchFacts } from "./facts";
import { assetTotals } from "./view";

/** The request an approval of a batch holds (kind "batch"): its totals, what each profile sends, and its largest rows. */
export function approvalRequestOf(
  batchId: string,
  read: Extract<BatchRead, { ok: true }>,
  facts: Pick<BatchFacts, "rowValues">,
): BatchApprovalRequest {
  const rows = read.rows.map((r, i) => ({
    row: r.row,
    from_profile_id: r.from_profile_id,
    to_profile_id: r.to_profile_id,
    asset: r.asset,
    amount: r.amount,
    value_usd: facts.rowValues[i] ?? "",
  }));
  const { outgoing } = batchTotals(read.rows);
  const byWorth = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
    compareDecimal(b.value_usd || "0", a.value_usd || "0") || compareDecimal(b.amount, a.amount) || a.row - b.row;
  return {
    ref_id: read.ref_id,
    batch_id: batchId,
    rows: rows.length,
    totals: assetTotals(rows),
    outgoing: outgoing.map(({ profile_id, asset, total }) => ({ profile_id, asset, amount: total })),
    largest: [...rows].sort(byWorth).slice(0, BATCH_LARGEST_ROWS),
  };
}
