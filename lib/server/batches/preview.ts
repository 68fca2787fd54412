import "server-only";
import type { BatchPreview } from "@/lib/shared/batch";
import type { BatchRead } from "@/lib/shared/batch-file";
import { rolesThatCan } from "@/lib/shared/roles";
import type { SignedInUser } from "../auth/session";
import { totalsOf } from "../create/controls/totals";
import { requireScopeOf } from "../create/pipeline";
import type { Runtime } from "../runtime";
import { takenRefIdErrors } from "./create";
import { readBatchFacts } from "./facts";
import { assetTotals } from "./view";
import { batchVerdictOf } from "./weigh";

/**
 * The Batches page's preview of a file (POST /api/batches/preview): every refused field of every
 * row, the taken ref_ids included; then, for a file with none, the controls' verdict as if it were
 * sent now (read outside any lock, writing nothing), its totals and each sending profile's funds.
 */
export async function previewBatch(rt: Runtime, read: BatchRead, user: SignedInUser): Promise<BatchPreview> {
  requireScopeOf(rt, "transfer");
  const empty = { totals: [], value_usd: null, funds: [], outcome: null };
  if (!read.ok) return { ref_id: "", rows: [], errors: read.errors, ...empty };
  const errors = await takenRefIdErrors(rt.db, read.rows);
  if (errors.length > 0) return { ref_id: read.ref_id, rows: read.rows, errors, ...empty };
  const facts = await readBatchFacts(rt, read.rows, user.role, user.email);
  const own = { kind: "transfer" as const, refId: read.ref_id };
  const totals = await totalsOf(rt.db, { email: user.email, kind: "transfer", own }, new Date(rt.clock.now()));
  const verdict = batchVerdictOf(facts, totals);
  const weighed = {
    ref_id: read.ref_id,
    rows: read.rows,
    errors: [],
    totals: assetTotals(read.rows.map((r, i) => ({ ...r, value_usd: facts.rowValues[i] ?? "" }))),
    value_usd: facts.valueUsd,
    funds: facts.funds.map(({ missing: _missing, ...f }) => f),
  };
  if ("refuse" in verdict) return { ...weighed, outcome: "refuse", problem: verdict.refuse.problem };
  if ("send" in verdict) return { ...weighed, outcome: "send" };
  const { rule, reason } = verdict.hold;
  return { ...weighed, outcome: "hold", hold: { rule, reason, approvers: rolesThatCan("approve") } };
}
