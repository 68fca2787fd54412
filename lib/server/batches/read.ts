import "server-only";
import { problem, ProblemError } from "@/lib/spec";
import type { Batch } from "@/lib/shared/batch";
import { isOpenBatch } from "@/lib/shared/batch";
import type { SignedInUser } from "../auth/session";
import { approvalRowOf, approvalView, decideApproval } from "../db/approvals";
import { batchOfId, listBatches, moveBatch, skipWaitingRows } from "../db/batches";
import type { Runtime } from "../runtime";
import { announceBatch } from "./sender";
import { batchView } from "./view";

const notFound = (id: string) => new ProblemError(problem(404, "Not Found", `No batch has id ${id}.`));

/** GET /api/batches/{id}. */
export async function getBatch(rt: Runtime, id: string): Promise<Batch> {
  const batch = await batchOfId(rt.db, id);
  if (!batch) throw notFound(id);
  return batchView(rt.db, batch);
}

/** GET /api/batches: the newest first. */
export async function recentBatches(rt: Runtime, limit = 50): Promise<Batch[]> {
  return Promise.all((await listBatches(rt.db, { limit })).map((b) => batchView(rt.db, b)));
}

/**
 * POST /api/batches/{id}/cancel, by its requester or an admin: the rows not yet sent are
 * skipped (a row in flight finishes: it may already be at the service). Audited.
 */
export async function cancelBatch(rt: Runtime, user: SignedInUser, id: string, ip: string | null): Promise<Batch> {
  const batch = await batchOfId(rt.db, id);
  if (!batch) throw notFound(id);
  if (batch.requested_by !== user.email && user.role !== "admin") {
    throw new ProblemError(problem(403, "Forbidden", "Only the batch's requester or an admin may cancel it."));
  }
  const moved =
    isOpenBatch(batch.status as Batch["status"]) &&
    (await moveBatch(rt.db, id, ["AWAITING_APPROVAL", "SENDING"], "CANCELLED", new Date(rt.clock.now()), {
      cancelled_by: user.email,
    }));
  if (!moved) {
    const now = (await batchOfId(rt.db, id))?.status ?? batch.status;
    throw new ProblemError(problem(409, "Conflict", `The batch is ${now}: there is nothing left to cancel.`));
  }
  const skipped = await skipWaitingRows(rt.db, id);
  // A batch cancelled while it waited takes its request for approval with it.
  if (batch.approval_id && batch.status === "AWAITING_APPROVAL") await withdrawnWith(rt, batch.approval_id, user);
  await rt.audit.append({
    action: "batch.cancelled",
    actor: user,
    ip,
    subject: batch.ref_id,
    detail: { batch_id: id, skipped },
  });
  await announceBatch(rt, id);
  return getBatch(rt, id);
}

async function withdrawnWith(rt: Runtime, approvalId: string, user: SignedInUser): Promise<void> {
  const at = new Date(rt.clock.now());
  const reason = "The batch was cancelled.";
  if (!(await decideApproval(rt.db, approvalId, { status: "WITHDRAWN", by: user.email, reason, at }))) return;
  const row = await approvalRowOf(rt.db, approvalId);
  if (row) rt.live.publish({ name: "approval", data: await approvalView(rt.db, row) });
}
