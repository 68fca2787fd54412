import "server-only";
import type { BatchCompletedData } from "@/lib/shared/event-data";
import type { Role } from "@/lib/shared/roles";
import type { CreateInternalTransferRequest, Problem } from "@/lib/spec";
import { refIdTaken } from "../create/bind-ref-id";
import { isSameCreate } from "../create/create";
import { storedCreate } from "../create/parse";
import { sendOnce } from "../create/send-once";
import {
  batchOfId,
  moveBatch,
  nextWaitingRow,
  sendingBatchIds,
  settleRow,
  type BatchRecord,
  type BatchRowRecord,
} from "../db/batches";
import { beginEntry, JournalRefIdTaken, journalEntryOfRef, type JournalEntry } from "../db/journal";
import { recordEvent } from "../db/outbox";
import { leaderPasses, type LeaderPasses } from "../ops/leader-passes";
import { budgetRatesFromEnv, rateOf } from "../upstream/budget-rates";
import type { Runtime } from "../runtime";
import { batchView } from "./view";

/**
 * Sends the rows of the batches that are SENDING, one row at a time, each once: a row is an
 * ordinary internal transfer under its own ref_id, journaled before it is sent. Whatever stops
 * the process between two steps (kill -9, SIGTERM, another instance taking over), the next pass
 * finds the row's journal entry: a completed one settles the row without sending; a pending one
 * is sent again under the same ref_id, which the service answers with the transfer it already
 * made (lib/server/create/send-once.ts). So no row goes twice, and none is skipped.
 *
 * One row in flight per process, at ROW_SHARE of the service's transfer rate: rows take the
 * transfer budget's slots (lib/server/upstream/pace.ts) one at a time and leave the rest free,
 * so a person's own create never waits behind a batch.
 * One instance sends: the leader (lib/server/live/leader.ts, a PostgreSQL advisory lock that
 * dies with its process), as it runs the watcher. A stopping leader resigns and sends no further
 * row once the one in flight is done; a killed one's lock goes with its connection; the next
 * leader's sweep goes on with the rows. Should both send the same row in that moment, it goes
 * under the same ref_id, which the service makes once.
 */

/** How often the sender looks for work it was not told about (a restart, another instance's batch). */
export const SWEEP_EVERY_MS = 5_000;

/**
 * The share of the service's transfer rate rows take: the rest stays free for the desk's own
 * transfers, which never queue behind a batch (orders have a budget of their own).
 */
export const ROW_SHARE = 0.5;

/** The wait between two rows: rows go at ROW_SHARE of the transfer class's rate. */
export const rowIntervalMs = (rt: Pick<Runtime, "config">): number =>
  1000 / (rateOf("transfer", budgetRatesFromEnv(rt.config)) * ROW_SHARE);

/** The row as the transfer it is, ref_id included. */
function requestOfRow(row: BatchRowRecord): CreateInternalTransferRequest & { ref_id: string } {
  return {
    from_profile_id: row.from_profile_id,
    to_profile_id: row.to_profile_id,
    asset: row.asset,
    amount: row.amount,
    ref_id: row.ref_id,
    ...(row.metadata_json ? { metadata: JSON.parse(row.metadata_json) as Record<string, string> } : {}),
  };
}

type Outcome = Parameters<typeof settleRow>[3];

/** The row as the create path's create: a transfer from its sending profile. */
const createOfRow = (row: BatchRowRecord) => storedCreate("transfer", row.from_profile_id, requestOfRow(row));

/** The row's outcome, read off its completed journal entry. */
function outcomeOf(entry: JournalEntry): Outcome {
  if (entry.status === "succeeded") {
    const record = entry.record as { id?: string; status?: string } | null;
    return {
      status: "SENT",
      transfer_id: record?.id ?? entry.result_id,
      transfer_status: record?.status ?? null,
      problem_json: null,
    };
  }
  return { status: "FAILED", transfer_id: null, transfer_status: null, problem_json: JSON.stringify(entry.problem) };
}

/**
 * The row's journal entry: the one a previous pass wrote, or a new pending one. An entry under
 * its ref_id that is another create's (a transfer that took the ref_id in the instant the batch
 * was written) is never taken for the row's: the row fails, naming it.
 */
async function entryOfRow(rt: Runtime, batch: BatchRecord, row: BatchRowRecord): Promise<JournalEntry | Problem> {
  const entry = (await journalEntryOfRef(rt.db, "transfer", row.ref_id)) ?? (await newEntry(rt, batch, row));
  const rows =
    entry.user_email === batch.requested_by && isSameCreate(createOfRow(row), entry.profile_id, entry.request);
  return rows ? entry : refIdTaken(createOfRow(row)).problem;
}

async function newEntry(rt: Runtime, batch: BatchRecord, row: BatchRowRecord): Promise<JournalEntry> {
  try {
    return await beginEntry(rt.db, {
      kind: "transfer",
      refId: row.ref_id,
      userEmail: batch.requested_by,
      userRole: batch.requested_role,
      profileId: row.from_profile_id,
      toProfileId: row.to_profile_id,
      request: requestOfRow(row),
      valueUsd: row.value_usd || null,
      approvalId: batch.approval_id,
      at: new Date(rt.clock.now()),
    });
  } catch (error) {
    if (error instanceof JournalRefIdTaken && error.existing) return error.existing;
    throw error;
  }
}

/**
 * Sends one row (or settles it from what an earlier pass did). True when the row is settled;
 * false when the service's answer is undecided: the row waits, and the journal's sweep decides.
 */
async function sendRow(rt: Runtime, batch: BatchRecord, row: BatchRowRecord): Promise<boolean> {
  const found = await entryOfRow(rt, batch, row);
  if (!("id" in found))
    return settle(rt, batch, row, {
      status: "FAILED",
      transfer_id: null,
      transfer_status: null,
      problem_json: JSON.stringify(found),
    });
  let entry = found;
  if (entry.status === "pending") {
    const create = createOfRow(row);
    await sendOnce(rt, requesterOf(batch), create, entry, {
      valueUsd: row.value_usd || null,
      approvalId: batch.approval_id,
    });
    entry = (await journalEntryOfRef(rt.db, "transfer", row.ref_id)) ?? entry;
  }
  if (entry.status !== "succeeded" && entry.status !== "failed") return false;
  return settle(rt, batch, row, outcomeOf(entry));
}

/** Writes the row's outcome once, and audits it. */
async function settle(rt: Runtime, batch: BatchRecord, row: BatchRowRecord, outcome: Outcome): Promise<true> {
  if (await settleRow(rt.db, batch.id, row.row, outcome)) {
    await rt.audit.append({
      action: outcome.status === "SENT" ? "batch.row_sent" : "batch.row_failed",
      actor: requesterOf(batch),
      subject: row.ref_id,
      detail: {
        batch_id: batch.id,
        batch_ref_id: batch.ref_id,
        row: row.row,
        ...(outcome.transfer_id ? { transfer_id: outcome.transfer_id } : {}),
        ...(outcome.problem_json ? { problem: JSON.parse(outcome.problem_json) as unknown } : {}),
      },
    });
  }
  return true;
}

const requesterOf = (batch: BatchRecord) => ({
  email: batch.requested_by,
  name: batch.requested_name,
  role: batch.requested_role as Role,
});

/** Told after each row settles and when the batch completes. */
export type OnProgress = (batch: BatchRecord) => void | Promise<void>;

/**
 * Sends a batch's waiting rows until none is left (then it is COMPLETED), it stops SENDING, this
 * instance stops leading or stops, or an answer is undecided (the journal's sweep decides it;
 * the next pass goes on).
 */
export async function sendBatchRows(rt: Runtime, batchId: string, onProgress: OnProgress): Promise<void> {
  for (;;) {
    if (rt.lifecycle.stopping || !rt.live.leading) return;
    const batch = await batchOfId(rt.db, batchId);
    // Cancelled meanwhile: the rows not yet sent were skipped with it.
    if (batch?.status !== "SENDING") return;
    const row = await nextWaitingRow(rt.db, batchId);
    if (!row) {
      if (await complete(rt, batch)) {
        await rt.audit.append({
          action: "batch.completed",
          actor: requesterOf(batch),
          subject: batch.ref_id,
          detail: { batch_id: batch.id },
        });
        await onProgress({ ...batch, status: "COMPLETED" });
      }
      return;
    }
    if (!(await sendRow(rt, batch, row))) return;
    await onProgress(batch);
    await rt.clock.sleep(rowIntervalMs(rt));
  }
}

/** Moves the batch to COMPLETED with its `batch.completed` event; false when it was no longer SENDING. */
function complete(rt: Runtime, batch: BatchRecord): Promise<boolean> {
  const at = new Date(rt.clock.now());
  return rt.db.transaction().execute(async (tx) => {
    if (!(await moveBatch(tx, batch.id, ["SENDING"], "COMPLETED", at))) return false;
    const data: BatchCompletedData = { batch: await batchView(tx, { ...batch, status: "COMPLETED" }) };
    await recordEvent(tx, { type: "batch.completed", at, data });
    return true;
  });
}

/**
 * The process's sender: one pass at a time over every SENDING batch (lib/server/ops/leader-passes.ts),
 * started when told (a batch created or approved) and every SWEEP_EVERY_MS.
 */
export const batchSender = (rt: Runtime, onProgress: OnProgress): LeaderPasses =>
  leaderPasses(
    rt,
    "batches",
    async () => {
      for (const id of await sendingBatchIds(rt.db)) await sendBatchRows(rt, id, onProgress);
    },
    SWEEP_EVERY_MS,
  );
