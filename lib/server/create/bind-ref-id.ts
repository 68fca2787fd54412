import "server-only";
import { problem, ProblemError } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { approvalRowOfRef, approvalView } from "../db/approvals";
import { batchRowOfRef } from "../db/batches";
import { journalEntryOfRef, type JournalEntry } from "../db/journal";
import { childOfRef, parentOfRef } from "../db/parent-orders";
import type { Runtime } from "../runtime";
import { isSameCreate, refIdOf, type Create, type CreateResult } from "./create";

/**
 * Step 2, bind the ref_id. One request per ref_id, forever: a ref_id belongs to exactly one
 * request (the same profile, the same body as canonical JSON) and one requester, whether the
 * journal or a held request has it. The same create from the same person again is a retry:
 * - sent and succeeded: answered with its record, nothing sent again;
 * - held for approval: answered with its approval, in whatever state it is;
 * - failed (the service refused it, so nothing was made): sent again, through the repeat
 *   question and the controls again;
 * - still being sent, or declined as a repeat: a 409 that says so.
 * Anything else under a ref_id already taken is a 409 naming `ref_id`.
 */
export type Binding =
  /** Not seen before: a new create. */
  | { fresh: true }
  /** A failed create, to be sent again through the controls (the entry is reopened). */
  | { retry: JournalEntry }
  /** Answered without going further: the record of a replay, or the approval of a held ref_id. */
  | { answer: CreateResult };

export async function bindRefId(rt: Runtime, create: Create, user: SignedInUser): Promise<Binding> {
  const refId = refIdOf(create);
  const [entry, held, batched, parented] = await Promise.all([
    journalEntryOfRef(rt.db, create.kind, refId),
    approvalRowOfRef(rt.db, create.kind, refId),
    create.kind === "transfer" ? batchRowOfRef(rt.db, refId) : undefined,
    create.kind === "order" ? parentOwning(rt, refId) : undefined,
  ]);
  // A batch's row owns its ref_id from the moment the batch is asked for, sent or not: the batch
  // sends it (lib/server/batches), never a single create. So do a parent order and its children
  // (lib/server/parent-orders).
  if (batched || parented) throw refIdTaken(create);
  if (entry && (entry.user_email !== user.email || !isSameCreate(create, entry.profile_id, entry.request))) {
    throw refIdTaken(create);
  }
  if (
    held &&
    (held.requested_by !== user.email || !isSameCreate(create, held.profile_id, JSON.parse(held.request_json)))
  ) {
    throw refIdTaken(create);
  }
  if (entry?.status === "succeeded") return { answer: { status: 200, body: entry.record } };
  if (entry?.status === "pending") {
    const detail = `A request with ref_id ${refId} is still being sent; its result will show in Activity.`;
    throw new ProblemError(problem(409, "Already In Progress", detail, { ref_id: refId }));
  }
  if (entry?.status === "declined") {
    const detail = `ref_id ${refId} was declined as a repeat and never sent. Start a new ${create.kind} to get a new ref_id.`;
    throw new ProblemError(problem(409, "Declined", detail, { ref_id: refId }));
  }
  // A held ref_id is the approval's: however it was decided, a retry is answered with it.
  if (held) return { answer: { status: 202, body: { approval: await approvalView(rt.db, held) } } };
  if (entry) return { retry: entry };
  return { fresh: true };
}

/** True when a parent order, or one of its children, owns the ref_id. */
const parentOwning = async (rt: Runtime, refId: string): Promise<boolean> =>
  Boolean((await childOfRef(rt.db, refId)) ?? (await parentOfRef(rt.db, refId)));

/** The 409 for a ref_id that belongs to another request or another person. */
export function refIdTaken(create: Create): ProblemError {
  const refId = refIdOf(create);
  const message = `ref_id ${refId} already belongs to a different ${create.kind}; a ref_id names one request, forever`;
  return new ProblemError(
    problem(409, "Already Exists", `ref_id: ${message}. Start a new ${create.kind} to get a new ref_id.`, {
      ref_id: refId,
      errors: [{ field: "ref_id", message }],
    }),
  );
}
