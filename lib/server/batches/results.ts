import "server-only";
import type { CsvRows } from "../lists/csv-response";
import type { Runtime } from "../runtime";
import { getBatch } from "./read";

/** The columns of a batch's results file: each row as it was asked, then its outcome. */
const HEADER = [
  "row",
  "from_profile_id",
  "to_profile_id",
  "asset",
  "amount",
  "ref_id",
  "status",
  "transfer_id",
  "transfer_status",
  "problem",
];

/** What a row's problem says, in one cell: the service's or the controls' detail, else its title. */
function problemText(problem: unknown): string {
  if (typeof problem !== "object" || problem === null) return "";
  const p = problem as { detail?: unknown; title?: unknown };
  return String(p.detail ?? p.title ?? "");
}

/** GET /api/batches/{id}/results.csv: the batch's rows with their outcomes, in the file's order. */
export async function batchResults(
  rt: Runtime,
  id: string,
): Promise<{ name: string; header: string[]; rows: CsvRows }> {
  const batch = await getBatch(rt, id);
  const lines = batch.rows.map((r) => [
    String(r.row),
    r.from_profile_id,
    r.to_profile_id,
    r.asset,
    r.amount,
    r.ref_id,
    r.status,
    r.transfer_id ?? "",
    r.transfer_status ?? "",
    problemText(r.problem),
  ]);
  async function* rows() {
    yield lines;
  }
  return { name: `batch-${batch.id}-results`, header: HEADER, rows: rows() };
}
