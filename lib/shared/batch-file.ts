import { addDecimal } from "@/lib/spec/decimal";
import type { BatchRow } from "./batch-rows";

/**
 * A batch of internal transfers as `POST /api/batches` receives it (issue 27): a CSV file or
 * a JSON body, read into rows and every row checked before anything is stored. One bad row
 * refuses the batch, with every refused field of every row. Whether a ref_id was already used
 * at the service is the server's to check; `batchRefIds` lists what it must look up.
 *
 * It imports lib/spec's transfer schema (zod): browser code loads it with `await import()`.
 */

export { readBatchCsv } from "./batch-csv";
export { readBatchJson } from "./batch-json";
export { BATCH_MAX_ROWS, BATCH_REF_ID_MAX_CHARS, defaultRowRefId } from "./batch-rows";
export type { BatchError, BatchOptions, BatchRead, BatchRow } from "./batch-rows";
export type { DeskProfile } from "./batch-profiles";

/** Each row's ref_id, in row order: what the server looks up at the service and in the journal. */
export const batchRefIds = (rows: readonly BatchRow[]): string[] => rows.map((r) => r.ref_id);

export interface BatchTotals {
  /** Per asset, the sum of every row's amount (by asset). */
  assets: { asset: string; total: string }[];
  /** Per sending profile and asset, what it sends (by profile, then asset): to set against its balance. */
  outgoing: { profile_id: string; asset: string; total: string }[];
}

/** Exact sums as decimal strings, ordered by code point so every run agrees. */
export function batchTotals(rows: readonly Pick<BatchRow, "from_profile_id" | "asset" | "amount">[]): BatchTotals {
  const assets = new Map<string, string>();
  const outgoing = new Map<string, { profile_id: string; asset: string; total: string }>();
  for (const { from_profile_id, asset, amount } of rows) {
    assets.set(asset, addDecimal(assets.get(asset) ?? "0", amount));
    const key = JSON.stringify([from_profile_id, asset]);
    const sent = outgoing.get(key) ?? { profile_id: from_profile_id, asset, total: "0" };
    outgoing.set(key, { ...sent, total: addDecimal(sent.total, amount) });
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    assets: [...assets].map(([asset, total]) => ({ asset, total })).sort((a, b) => byText(a.asset, b.asset)),
    outgoing: [...outgoing.values()].sort((a, b) => byText(a.profile_id, b.profile_id) || byText(a.asset, b.asset)),
  };
}
