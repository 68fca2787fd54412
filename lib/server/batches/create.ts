import "server-only";
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { v7 as timeOrderedId } from "uuid";
import type { Approval } from "@/lib/shared/approval";
import type { Batch } from "@/lib/shared/batch";
import { batchRefIds, type BatchError, type BatchRead, type BatchRow } from "@/lib/shared/batch-file";
import { problem, ProblemError, type Problem } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { canonicalJson } from "../canonical-json";
import { limitRefusedEvents } from "../create/controls/limit-refused";
import { totalsOf } from "../create/controls/totals";
import type { CreateContext, CreateResult } from "../create/create";
import { requireScopeOf } from "../create/pipeline";
import { repeatProblem, REPEAT_WINDOW_MS } from "../create/repeat-question";
import { isUniqueViolation } from "../db";
import { approvalView, insertApproval, type ApprovalRow } from "../db/approvals";
import { batchOfRef, insertBatch, sameRowsSince, takenRefIds, type BatchRecord } from "../db/batches";
import { inPersonLock } from "../db/person-lock";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";
import { readBatchFacts, type BatchFacts } from "./facts";
import { batchView } from "./view";
import { batchVerdictOf, type BatchVerdict } from "./weigh";
import { announceBatch, kickBatches } from "./sender";
import { approvalRequestOf } from "./approval-request";

/**
 * POST /api/batches: a batch of internal transfers, read and checked whole before anything is
 * stored (lib/shared/batch-file.ts), then weighed whole by the controls in the person's lock,
 * like any create (lib/server/create/pipeline.ts), in the same steps:
 * 1. the file's rows, each with the transfer form's rules: one bad row refuses all (400, meta.errors);
 * 2. the batch's ref_id: a replay answers the batch as it stands; a row's ref_id another
 *    transfer has is a 400 on that row (asked again in the lock);
 * 3. in the lock: the repeat question (the same rows under another ref_id within a minute, 409),
 *    the person's totals, the verdict (weigh.ts), and the batch written: SENDING, or
 *    AWAITING_APPROVAL with its approval (kind "batch");
 * 4. audited and announced; a sending batch's rows go through the sender (send-rows.ts).
 */
export async function createBatch(rt: Runtime, read: BatchRead, ctx: CreateContext): Promise<CreateResult> {
  requireScopeOf(rt, "transfer");
  if (!read.ok) throw invalidBatch(read.errors);
  const replay = await batchOfRef(rt.db, read.ref_id);
  if (replay) return replayOf(rt, replay, read.rows, ctx.user);
  await refuseTakenRefIds(rt.db, read.rows);
  const facts = await readBatchFacts(rt, read.rows, ctx.user.role, ctx.user.email);
  const step = await weighAndWrite(rt, read, facts, ctx).catch(async (error: unknown) => {
    // The same ref_id written by a parallel request in the same instant: answered as a replay.
    if (!isUniqueViolation(error)) throw error;
    const raced = await batchOfRef(rt.db, read.ref_id);
    if (raced) return { replay: raced };
    throw invalidBatch([{ row: 0, field: "ref_id", message: takenMessage(read.rows[0]?.ref_id ?? read.ref_id) }]);
  });
  if ("replay" in step) return replayOf(rt, step.replay, read.rows, ctx.user);
  if ("refuse" in step.verdict) {
    await auditRefused(rt, ctx, read, facts, step.verdict.refuse.action, step.verdict.refuse.problem);
    throw new ProblemError(step.verdict.refuse.problem);
  }
  return announceCreated(rt, ctx, step);
}

interface Written {
  verdict: BatchVerdict;
  batch?: BatchRecord;
  approval?: ApprovalRow;
  repeatOf?: string | null;
}

async function weighAndWrite(
  rt: Runtime,
  read: Extract<BatchRead, { ok: true }>,
  facts: BatchFacts,
  ctx: CreateContext,
) {
  const user = ctx.user;
  const rowsKey = rowsKeyOf(read.rows);
  return inPersonLock(rt.db, user.email, async (tx): Promise<Written | { replay: BatchRecord }> => {
    // The same batch written by a parallel request of the person's while this one waited for the lock.
    const raced = await batchOfRef(tx, read.ref_id);
    if (raced) return { replay: raced };
    const now = new Date(rt.clock.now());
    const repeatOf = await askAboutRepeats(tx, user, read.ref_id, rowsKey, ctx.confirmRepeatOf, now);
    // Again in the lock: a transfer made meanwhile under one of the rows' ref_ids.
    await refuseTakenRefIds(tx, read.rows);
    const own = { kind: "transfer" as const, refId: read.ref_id };
    const totals = await totalsOf(tx, { email: user.email, kind: "transfer", own }, now);
    const verdict = batchVerdictOf(facts, totals);
    if ("refuse" in verdict) return { verdict };
    const id = timeOrderedId();
    const approval =
      "hold" in verdict
        ? await insertApproval(tx, user, {
            at: now,
            kind: "batch",
            refId: read.ref_id,
            profileId: "",
            request: approvalRequestOf(id, read, facts),
            valueUsd: facts.unpriced.length > 0 ? null : verdict.hold.valueUsd,
            rule: verdict.hold.rule,
            holdReason: verdict.hold.reason,
          })
        : undefined;
    const batch = batchRecordOf(id, read.ref_id, user, now, {
      status: approval ? "AWAITING_APPROVAL" : "SENDING",
      value_usd: facts.valueUsd,
      approval_id: approval?.id ?? null,
      rows_key: rowsKey,
    });
    await insertBatch(tx, batch, rowRecordsOf(id, read.rows, facts.rowValues));
    return { verdict, batch, approval, repeatOf };
  });
}

/** Audited, pushed to every open screen, and sent (201) or held for four eyes (202). */
async function announceCreated(rt: Runtime, ctx: CreateContext, step: Written): Promise<CreateResult> {
  const batch = step.batch!;
  const view = await batchView(rt.db, batch);
  await rt.audit.append({
    action: "batch.requested",
    actor: ctx.user,
    ip: ctx.ip,
    subject: batch.ref_id,
    detail: {
      batch_id: batch.id,
      rows: view.rows.length,
      value_usd: batch.value_usd,
      totals: view.totals,
      ...(step.approval ? { approval_id: step.approval.id } : {}),
      ...(step.repeatOf ? { duplicate_of: step.repeatOf } : {}),
    },
  });
  await announceBatch(rt, batch.id);
  if (!step.approval) {
    kickBatches(rt);
    return { status: 201, body: { batch: view } };
  }
  const approval = await announceHeld(rt, ctx, step.approval, step.verdict);
  return { status: 202, body: { approval, batch: view } };
}

async function announceHeld(
  rt: Runtime,
  ctx: CreateContext,
  row: ApprovalRow,
  verdict: BatchVerdict,
): Promise<Approval> {
  const hold = "hold" in verdict ? verdict.hold : undefined;
  await rt.audit.append({
    action: "approval.requested",
    actor: ctx.user,
    ip: ctx.ip,
    subject: row.id,
    detail: {
      kind: row.kind,
      ref_id: row.ref_id,
      request: JSON.parse(row.request_json) as unknown,
      value_usd: hold?.valueUsd ?? null,
      rule: hold?.rule,
      ...(hold?.reason ? { hold_reason: hold.reason } : {}),
    },
  });
  const approval = await approvalView(rt.db, row);
  rt.live.publish({ name: "approval", data: approval });
  return approval;
}

/** The same batch ref_id again: the same requester's same rows answer the batch as it stands (200); anything else is a 409. */
async function replayOf(rt: Runtime, batch: BatchRecord, rows: readonly BatchRow[], user: SignedInUser) {
  if (batch.requested_by !== user.email || batch.rows_key !== rowsKeyOf(rows)) {
    throw new ProblemError(
      problem(
        409,
        "Conflict",
        `The batch ref_id ${batch.ref_id} is another batch's already: a batch's ref_id names one batch forever. Give this one a new ref_id.`,
        { ref_id: batch.ref_id, errors: [{ row: 0, field: "ref_id", message: "This ref_id is another batch's" }] },
      ),
    );
  }
  return { status: 200, body: { batch: await batchView(rt.db, batch) } satisfies { batch: Batch } };
}

/** Each row whose ref_id another transfer already has (a batch's row, a create journaled or held), refused on that row. */
export async function takenRefIdErrors(db: Kysely<Database>, rows: readonly BatchRow[]): Promise<BatchError[]> {
  const taken = await takenRefIds(db, batchRefIds(rows));
  return rows
    .filter((r) => taken.has(r.ref_id))
    .map((r) => ({ row: r.row, field: "ref_id", message: takenMessage(r.ref_id) }));
}

/** A 400 on every row whose ref_id is taken. */
async function refuseTakenRefIds(db: Kysely<Database>, rows: readonly BatchRow[]): Promise<void> {
  const errors = await takenRefIdErrors(db, rows);
  if (errors.length > 0) throw invalidBatch(errors);
}

const takenMessage = (refId: string) =>
  `ref_id "${refId}" is already used by another transfer: each transfer needs a ref_id of its own, such as "${refId}-2"`;

export function invalidBatch(errors: readonly BatchError[]): ProblemError {
  const first = errors[0];
  const where = first ? (first.row === 0 ? `${first.field}: ` : `row ${first.row}, ${first.field}: `) : "";
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  return new ProblemError(
    problem(400, "Bad Request", `The batch was not accepted: ${where}${first?.message ?? ""}${more}.`, { errors }),
  );
}

/**
 * The repeat question, for a batch: the same rows (their ref_ids aside) asked by the same person
 * within a minute under another batch ref_id are asked about (409), until Confirm-Duplicate names
 * the earlier batch's ref_id. Returns that ref_id when confirmed, else null.
 */
async function askAboutRepeats(
  tx: Kysely<Database>,
  user: SignedInUser,
  refId: string,
  rowsKey: string,
  confirmedOf: string | null | undefined,
  now: Date,
): Promise<string | null> {
  const since = new Date(now.getTime() - REPEAT_WINDOW_MS).toISOString();
  const twin = (await sameRowsSince(tx, user.email, rowsKey, since)).find((b) => b.ref_id !== refId);
  if (!twin) return null;
  if (confirmedOf === twin.ref_id) return twin.ref_id;
  throw new ProblemError(
    repeatProblem({ ref_id: twin.ref_id, created_at: twin.created_at, held: twin.status === "AWAITING_APPROVAL" }, now),
  );
}

/** The rows as the repeat question compares them: what each moves, without the ref_ids. */
export const rowsKeyOf = (rows: readonly BatchRow[]): string =>
  createHash("sha256")
    .update(canonicalJson(rows.map((r) => ({ ...r, ref_id: undefined }))))
    .digest("base64url");

function batchRecordOf(
  id: string,
  refId: string,
  user: SignedInUser,
  now: Date,
  fields: Pick<BatchRecord, "status" | "value_usd" | "approval_id" | "rows_key">,
): BatchRecord {
  const at = now.toISOString();
  return {
    id,
    ref_id: refId,
    requested_by: user.email,
    requested_name: user.name,
    requested_role: user.role,
    created_at: at,
    updated_at: at,
    cancelled_by: null,
    ...fields,
  };
}

const rowRecordsOf = (batchId: string, rows: readonly BatchRow[], values: readonly string[]) =>
  rows.map((r, i) => ({
    batch_id: batchId,
    row: r.row,
    from_profile_id: r.from_profile_id,
    to_profile_id: r.to_profile_id,
    asset: r.asset,
    amount: r.amount,
    ref_id: r.ref_id,
    metadata_json: r.metadata ? JSON.stringify(r.metadata) : null,
    value_usd: values[i] ?? "",
    status: "WAITING",
    transfer_id: null,
    transfer_status: null,
    problem_json: null,
  }));

async function auditRefused(
  rt: Runtime,
  ctx: CreateContext,
  read: Extract<BatchRead, { ok: true }>,
  facts: BatchFacts,
  action: "limit.refused" | "create.refused" | "price_guard.confirm_asked",
  refusal: Problem,
) {
  await rt.audit.append({
    action,
    actor: ctx.user,
    ip: ctx.ip,
    subject: read.ref_id,
    detail: { kind: "batch", ref_id: read.ref_id, rows: read.rows.length, value_usd: facts.valueUsd, problem: refusal },
    events: limitRefusedEvents(
      action,
      { kind: "batch", ref_id: read.ref_id, profile_id: null, requested_by: ctx.user.email, problem: refusal },
      new Date(rt.clock.now()),
    ),
  });
}
