import "server-only";
import { isProblem, problem, type Order, type Problem, type Transfer } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { completeEntry, type JournalEntry, type JournalKind } from "../db/journal";
import type { Runtime } from "../runtime";
import {
  UpstreamError,
  UpstreamLocked,
  UpstreamScopeMissing,
  upstreamProblem,
  type UpstreamClient,
} from "../upstream/client";
import { existingRecordOf } from "../upstream/same-record";
import { isRecordOf, pathOf, refIdOf, weighedAsTransferNote, type Create, type CreateResult } from "./create";

/**
 * Step 5 (pipeline.ts), when the verdict is send: send once (the verdict hold goes to hold.ts
 * instead). The create, already journaled as pending (the pipeline wrote the entry in the same
 * step as the controls' check), is sent to the service, retried only with the same
 * ref_id, and its entry completed with the outcome; each step audited. A 409 "already exists"
 * for our ref_id resolves to the original record when it is the same order or transfer; after
 * the last failed try the service is asked by ref_id before the create is called failed.
 */

const RETRY_DELAYS_MS = [300, 1000];
/** A browser waits at most about this long; past it the journal keeps the entry for reconciliation. */
const GIVE_UP_AFTER_MS = 25_000;

/** What the audit trail records with the request. */
export interface SendNotes {
  valueUsd: string | null;
  repeatOf?: string | null;
  approvalId?: string | null;
}

export async function sendOnce(
  rt: Runtime,
  user: SignedInUser,
  create: Create,
  entry: JournalEntry,
  notes: SendNotes,
  ip: string | null = null,
): Promise<CreateResult> {
  const subject = refIdOf(create);
  await rt.audit.append({
    action: "create.requested",
    actor: user,
    ip,
    subject,
    detail: {
      kind: create.kind,
      profile_id: create.profileId,
      request: create.request,
      value_usd: notes.valueUsd,
      ...weighedAsTransferNote(create),
      ...(notes.repeatOf ? { duplicate_of: notes.repeatOf } : {}),
      ...(notes.approvalId ? { approval_id: notes.approvalId } : {}),
    },
  });
  const started = performance.now();
  const outcome = await sendWithRetries(rt, create);
  const latencyMs = performance.now() - started;
  if (outcome.undecided) return { status: outcome.status, body: undecidedProblem(outcome) };
  await completeEntry(
    rt.db,
    entry.id,
    outcome.failed
      ? { status: "failed", httpStatus: outcome.status, latencyMs, problem: outcome.failed }
      : { status: "succeeded", httpStatus: outcome.status, latencyMs, record: outcome.body },
  );
  await rt.audit.append({
    action: outcome.failed ? "create.failed" : "create.succeeded",
    actor: user,
    ip,
    subject,
    detail: {
      kind: create.kind,
      http_status: outcome.status,
      ...(outcome.failed ? { problem: outcome.failed } : { record: outcome.body }),
    },
  });
  // Pushed to every open screen the moment the service answers, before the watcher's next look.
  if (!outcome.failed) rt.live.publish({ name: create.kind, data: outcome.body });
  return { status: outcome.status, body: outcome.body };
}

/**
 * The service's answer: a record, a failure (`failed`: nothing was created), or undecided: an
 * attempt may have reached the service and nobody can say now whether it made the create (a
 * lockout, the service unreachable for the look-up). An undecided entry stays pending, and the
 * journal's sweep (lib/server/reconcile.ts) asks the service by ref_id once it answers again.
 */
type Outcome = CreateResult & { failed?: Problem; undecided?: true };

async function sendWithRetries({ upstream, clock }: Runtime, create: Create): Promise<Outcome> {
  // On the runtime's clock: the backoff between attempts, and how long the attempts took in all.
  const started = clock.now();
  let last: Outcome = { status: 502, body: null };
  // Whether an attempt may have reached the service (a 5xx, a timeout, a dropped connection).
  let mayHaveLanded = false;
  for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
    if (attempt > 0) await clock.sleep(RETRY_DELAYS_MS[attempt - 1]!);
    try {
      const res = await upstream.request({ method: "POST", path: pathOf(create), body: create.request });
      if (res.status >= 200 && res.status < 300) return { status: 200, body: res.body };
      if (isAlreadyExists(res.status, res.body)) return resolveExisting(upstream, create, res.body as Problem);
      last = failure(
        isProblem(res.body) ? res.body : problem(res.status, "Service Error", `The service answered ${res.status}.`),
      );
      // A refusal (4xx) created nothing. (The client never hands back a 429: it locks out instead.)
      if (res.status < 500) return last;
      mayHaveLanded = true;
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      last = failure(upstreamProblem(error));
      // Refused before it was sent (a lockout, refused credentials, a missing scope, no token): trying
      // again now sends nothing either, and the service is not to be asked while it refuses us. (A
      // refused connection is tried again: the service may be back a moment later.)
      if (refusedUnsent(error)) return mayHaveLanded ? { ...last, undecided: true } : last;
      if (!error.maybeDelivered) continue;
      mayHaveLanded = true;
    }
    if (clock.now() - started > GIVE_UP_AFTER_MS) break;
  }
  // The last attempt may still have reached the service: ask it before calling this a failure.
  let found: Order | Transfer | undefined;
  try {
    found = await findByRefId(upstream, create.kind, refIdOf(create));
  } catch {
    return { ...last, undecided: true };
  }
  if (!found) return last;
  return isRecordOf(create, found)
    ? { status: 200, body: found }
    : differentCreate(create, last.failed ?? problem(409, "Conflict", ""));
}

/** What the person reads while the create is undecided: the service's trouble, and that nothing is lost. */
const undecidedProblem = (outcome: Outcome): Problem => {
  const p = outcome.failed ?? problem(outcome.status, "Service Error", "");
  const detail =
    `${p.detail ?? ""} The request may have reached the service: it stays in the journal as pending and is checked with the service by its ref_id as soon as the service answers again; its outcome will show in Activity.`.trim();
  return { ...p, detail };
};

const refusedUnsent = (error: UpstreamError) =>
  error.stage === "token" || error instanceof UpstreamLocked || error instanceof UpstreamScopeMissing;

const failure = (p: Problem): Outcome => ({ status: p.status, body: p, failed: p });

const isAlreadyExists = (status: number, body: unknown) =>
  status === 409 && isProblem(body) && /already.exists/i.test(`${body.type} ${body.title}`);

/**
 * A 409 for our ref_id: an earlier attempt got through. Answer with that record if it is ours:
 * the one the 409 carries in `meta.existing`, else the one the service lists under our ref_id.
 */
async function resolveExisting(upstream: UpstreamClient, create: Create, conflict: Problem): Promise<Outcome> {
  const carried = existingRecordOf(conflict);
  if (carried && isRecordOf(create, carried)) return { status: 200, body: carried };
  const found = await findByRefId(upstream, create.kind, refIdOf(create)).catch(() => undefined);
  if (found && isRecordOf(create, found)) return { status: 200, body: found };
  return differentCreate(create, conflict);
}

const differentCreate = (create: Create, conflict: Problem): Outcome => {
  const detail = `ref_id ${refIdOf(create)} already belongs to a different ${create.kind} at the service. Start a new ${create.kind} to get a new ref_id.`;
  return failure({ ...conflict, status: 409, title: conflict.title || "Already Exists", detail });
};

/**
 * The record a create with this ref_id made at the service, if any: the order, or the DEBIT
 * leg of the transfer. Throws when the service cannot say, so that "not found" is never
 * mistaken for "not created".
 */
export async function findByRefId(
  upstream: UpstreamClient,
  kind: JournalKind,
  refId: string,
): Promise<Order | Transfer | undefined> {
  const order = kind === "order";
  const path = order ? "/orders" : "/transfer/transfers";
  const res = await upstream.request({ method: "GET", path, query: { ref_ids: [refId] } });
  if (res.status !== 200) throw new Error(`the service answered ${res.status} to a lookup by ref_id`);
  const items = (res.body as { items?: (Order | Transfer)[] }).items ?? [];
  return order ? items[0] : items.find((t) => (t as Transfer).direction === "DEBIT");
}
