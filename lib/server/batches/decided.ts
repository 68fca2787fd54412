import "server-only";
import type { BatchRow } from "@/lib/shared/batch-file";
import type { Role } from "@/lib/shared/roles";
import { problem, type Problem } from "@/lib/spec";
import { totalsOf } from "../create/controls/totals";
import type { ApprovalRow } from "../db/approvals";
import { batchOfApproval, moveBatch, rowsOfBatch, skipWaitingRows, type BatchRowRecord } from "../db/batches";
import { inPersonLock } from "../db/person-lock";
import type { Runtime } from "../runtime";
import { readBatchFacts } from "./facts";
import { announceBatch, kickBatches } from "./sender";
import { getBatch } from "./read";
import { batchVerdictOf } from "./weigh";

/**
 * A batch's approval decided (lib/server/approvals/decisions.ts). Approved: the batch is weighed
 * again as every approved request is (the requester's role now, their daily limit with today's
 * totals, each sending profile's funds), then sent: it moves to SENDING and the sender takes its
 * rows. Refused at that check, rejected, withdrawn or expired: it ends (REJECTED, CANCELLED or
 * EXPIRED) and no row is sent.
 */

const rowOf = (r: BatchRowRecord): BatchRow => ({
  row: r.row,
  from_profile_id: r.from_profile_id,
  to_profile_id: r.to_profile_id,
  asset: r.asset,
  amount: r.amount,
  ref_id: r.ref_id,
  ...(r.metadata_json ? { metadata: JSON.parse(r.metadata_json) as Record<string, string> } : {}),
});

/** The approval's outcome: the batch sending (201), or the refusal of the controls checked again (then nothing is sent). */
export async function sendApprovedBatch(
  rt: Runtime,
  approval: ApprovalRow,
): Promise<{ status: number; body: unknown; sent: boolean }> {
  const batch = await batchOfApproval(rt.db, approval.id);
  if (!batch) throw new Error(`approval ${approval.id} holds no batch`);
  const rows = (await rowsOfBatch(rt.db, batch.id)).map(rowOf);
  const facts = await readBatchFacts(rt, rows, approval.requested_role as Role, approval.requested_by);
  const own = { kind: "transfer" as const, refId: batch.ref_id };
  const step = await inPersonLock(rt.db, batch.requested_by, async (tx) => {
    const now = new Date(rt.clock.now());
    const totals = await totalsOf(tx, { email: batch.requested_by, kind: "transfer", own, ownBatch: batch.id }, now);
    const verdict = batchVerdictOf(facts, totals, true);
    if ("refuse" in verdict) return verdict;
    if (await moveBatch(tx, batch.id, ["AWAITING_APPROVAL"], "SENDING", now)) return verdict;
    return {
      refuse: {
        problem: problem(409, "Conflict", "The batch was cancelled before it was approved: nothing was sent."),
      },
    };
  });
  if ("refuse" in step) {
    await endHeldBatch(rt, approval, "REJECTED");
    await rt.audit.append({
      action: "approval.send_refused",
      actor: { email: approval.requested_by, role: approval.requested_role },
      subject: approval.id,
      detail: { kind: "batch", ref_id: batch.ref_id, problem: step.refuse.problem },
    });
    return refused(step.refuse.problem);
  }
  kickBatches(rt);
  await announceBatch(rt, batch.id);
  return { status: 201, body: { batch: await getBatch(rt, batch.id) }, sent: true };
}

const refused = (p: Problem) => ({ status: p.status, body: p, sent: false });

/** The batch of an approval that will not be sent: it ends with the approval's fate, its rows skipped. */
export async function endHeldBatch(
  rt: Runtime,
  approval: Pick<ApprovalRow, "id">,
  status: "REJECTED" | "CANCELLED" | "EXPIRED",
): Promise<void> {
  const batch = await batchOfApproval(rt.db, approval.id);
  if (!batch) return;
  if (!(await moveBatch(rt.db, batch.id, ["AWAITING_APPROVAL"], status, new Date(rt.clock.now())))) return;
  await skipWaitingRows(rt.db, batch.id);
  await announceBatch(rt, batch.id);
}
