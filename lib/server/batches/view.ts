import "server-only";
import type { Batch, BatchRowStatus, BatchStatus } from "@/lib/shared/batch";
import { addDecimal } from "@/lib/spec";
import { rowsOfBatch, type BatchRecord, type BatchRowRecord } from "../db/batches";
import type { Db } from "../db";

/** The batch as the API answers it: its counts and per-asset totals read off its rows. */
export async function batchView(db: Db, batch: BatchRecord): Promise<Batch> {
  return viewOf(batch, await rowsOfBatch(db, batch.id));
}

export function viewOf(batch: BatchRecord, rows: BatchRowRecord[]): Batch {
  const counts = { waiting: 0, sent: 0, failed: 0, skipped: 0 };
  for (const r of rows) counts[r.status.toLowerCase() as keyof typeof counts] += 1;
  return {
    id: batch.id,
    ref_id: batch.ref_id,
    status: batch.status as BatchStatus,
    requested_by: batch.requested_by,
    created_at: batch.created_at,
    approval_id: batch.approval_id,
    counts,
    totals: assetTotals(rows),
    rows: rows.map((r) => ({
      row: r.row,
      from_profile_id: r.from_profile_id,
      to_profile_id: r.to_profile_id,
      asset: r.asset,
      amount: r.amount,
      ref_id: r.ref_id,
      status: r.status as BatchRowStatus,
      ...(r.transfer_id ? { transfer_id: r.transfer_id } : {}),
      ...(r.transfer_status ? { transfer_status: r.transfer_status } : {}),
      ...(r.problem_json ? { problem: JSON.parse(r.problem_json) as unknown } : {}),
    })),
  };
}

/** Per asset, the rows' sum and its worth in USD ("" when a row's asset no market prices), by asset. */
export function assetTotals(rows: readonly { asset: string; amount: string; value_usd: string }[]): Batch["totals"] {
  const totals = new Map<string, { asset: string; amount: string; value_usd: string }>();
  for (const r of rows) {
    const t = totals.get(r.asset) ?? { asset: r.asset, amount: "0", value_usd: "0" };
    t.amount = addDecimal(t.amount, r.amount);
    // One row no market prices leaves the asset's worth unknown.
    t.value_usd = t.value_usd === "" || r.value_usd === "" ? "" : addDecimal(t.value_usd, r.value_usd);
    totals.set(r.asset, t);
  }
  return [...totals.values()].sort((a, b) => (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0));
}
