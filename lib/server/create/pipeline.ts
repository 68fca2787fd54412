import "server-only";
import type { Kysely } from "kysely";
import type { PriceGuard } from "@/lib/shared/price-guard";
import type { Role } from "@/lib/shared/roles";
import { OPERATIONS, problem, ProblemError, trimZeros, type Problem } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { isUniqueViolation } from "../db";
import type { ApprovalRow } from "../db/approvals";
import { beginEntry, JournalRefIdTaken, journalEntryOfRef, reopenEntry, type JournalEntry } from "../db/journal";
import { inPersonLock } from "../db/person-lock";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";
import { UpstreamError, upstreamProblem } from "../upstream/client";
import { requireScope } from "../upstream/scopes";
import { bindRefId, refIdTaken } from "./bind-ref-id";
import { readFacts, readFunds } from "./controls/facts";
import { limitRefusedEvents } from "./controls/limit-refused";
import { rightsRefusal } from "./controls/rights";
import { totalsFor } from "./controls/totals";
import { verdictOf, type Refusal, type Verdict, type Weighing } from "./controls/verdict";
import {
  isSameCreate,
  refIdOf,
  toProfileOf,
  weighedAsTransferNote,
  type Create,
  type CreateContext,
  type CreateResult,
} from "./create";
import { announceHold, writeHold } from "./hold";
import { parseOrder, parseTransfer, storedCreate } from "./parse";
import { askAboutRepeats } from "./repeat-question";
import { sendOnce } from "./send-once";

/**
 * The one create path, in one direction. Every create, new, retried or replayed, needs its
 * operation's scope (SERVICE_SCOPES, lib/spec/operations.ts) before anything is read or written,
 * then takes the same steps in order:
 * 1. parse (parse.ts);
 * 2. bind the ref_id (bind-ref-id.ts): a replay or a held ref_id is answered here;
 * 3. the repeat question (repeat-question.ts);
 * 4. the controls' verdict (controls/): what they weigh is read first; then, in the person's
 *    lock, step 3, their totals, the verdict and the write it calls for, as one atomic step;
 * 5. hold (hold.ts, 202), or send once (send-once.ts).
 * An approver's deferred send (sendApproved) enters at step 4, without the repeat question,
 * weighed again with today's policy, prices, the requester's role and the funds.
 */

export type { CreateContext, CreateResult };

/** Create Order; `profileId` is a validated path id. */
export async function createOrder(rt: Runtime, profileId: string, input: unknown, ctx: CreateContext) {
  requireScopeOf(rt, "order");
  return createThrough(rt, parseOrder(profileId, input), ctx);
}

/** Create Internal Transfer. */
export async function createInternalTransfer(rt: Runtime, input: unknown, ctx: CreateContext) {
  requireScopeOf(rt, "transfer");
  return createThrough(rt, parseTransfer(input), ctx);
}

/** The 403 "Scope Missing" (UpstreamScopeMissing) when the credentials lack this create's scope. */
export const requireScopeOf = (rt: Runtime, kind: Create["kind"]) =>
  requireScope(
    kind === "order" ? OPERATIONS.createOrder.scope : OPERATIONS.createInternalTransfer.scope,
    rt.config.SERVICE_SCOPES,
  );

async function createThrough(rt: Runtime, create: Create, ctx: CreateContext): Promise<CreateResult> {
  // A right the route could not see (an order settling into another profile needs the right to
  // transfer): refused before anything is read, written or sent; the verdict checks it again.
  const forbidden = rightsRefusal(create, ctx.user.role);
  if (forbidden) {
    await auditRefusal(rt, ctx.user, create, { problem: forbidden, action: "create.refused" }, ctx.ip);
    throw new ProblemError(forbidden);
  }
  const binding = await bindRefId(rt, create, ctx.user);
  if ("answer" in binding) return binding.answer;
  const facts = await readFacts(rt, create, ctx.user.role, ctx.user.email);
  const step = await weighAndWrite(rt, create, {
    requester: ctx.user,
    facts,
    confirmedMarket: ctx.confirmedMarket,
    confirmRepeatOf: ctx.confirmRepeatOf,
  });
  const repeatOf = step.repeatOf ?? null;
  await auditGuardConfirmed(rt, ctx.user, create, step.verdict, ctx.ip);
  if ("refuse" in step.verdict) {
    await auditRefusal(rt, ctx.user, create, step.verdict.refuse, ctx.ip);
    throw new ProblemError(step.verdict.refuse.problem);
  }
  if ("hold" in step.verdict) {
    const approval = await announceHold(rt, ctx.user, create, step.held!, step.verdict.hold, repeatOf, ctx.ip);
    return { status: 202, body: { approval } };
  }
  const notes = { valueUsd: step.verdict.send.valueUsd, repeatOf };
  return sendOnce(rt, ctx.user, create, step.entry!, notes, ctx.ip);
}

/** An approved request, as the approvals table keeps it. */
export type ApprovedRequest = Pick<
  ApprovalRow,
  | "id"
  | "kind"
  | "profile_id"
  | "request_json"
  | "requested_by"
  | "requested_name"
  | "requested_role"
  | "price_guard_json"
>;

/** What an approved request came to: the service's answer, or the refusal of the controls (then nothing was sent). */
export interface SendOutcome extends CreateResult {
  sent: boolean;
}

/**
 * An approver's deferred send: the approved request enters the path at step 4, the controls
 * (its scope required first, as for every create), weighed with today's policy and prices, the
 * requester's role now and the funds. If any refuses, nothing is sent and that refusal is the
 * outcome (audited as `approval.send_refused`). Never throws: a price that cannot be read, a
 * ref_id taken meanwhile, are outcomes too.
 */
export async function sendApproved(rt: Runtime, approved: ApprovedRequest): Promise<SendOutcome> {
  const requester: SignedInUser = {
    email: approved.requested_by,
    name: approved.requested_name,
    role: approved.requested_role as Role,
  };
  try {
    const create = heldCreate(approved);
    requireScopeOf(rt, create.kind);
    const [facts, funds] = await Promise.all([
      readFacts(rt, create, requester.role, requester.email),
      readFunds(rt, create),
    ]);
    const guardConfirmed = approved.price_guard_json ? (JSON.parse(approved.price_guard_json) as PriceGuard) : null;
    const step = await weighAndWrite(rt, create, {
      requester: { ...requester, role: facts.role },
      facts: { ...facts, funds },
      approved: { id: approved.id, guardConfirmed },
    });
    if ("refuse" in step.verdict) {
      await auditRefusal(rt, requester, create, step.verdict.refuse, null, approved.id);
      return { ...refusedAtSend(step.verdict.refuse.problem) };
    }
    if (!("send" in step.verdict)) throw new Error("an approved request was held again");
    const notes = { valueUsd: step.verdict.send.valueUsd, approvalId: approved.id };
    return { ...(await sendOnce(rt, { ...requester, role: facts.role }, create, step.entry!, notes)), sent: true };
  } catch (error) {
    const p =
      error instanceof ProblemError
        ? error.problem
        : error instanceof UpstreamError
          ? upstreamProblem(error)
          : undefined;
    if (!p) throw error;
    await rt.audit.append({
      action: "approval.send_refused",
      actor: requester,
      subject: approved.id,
      detail: { kind: approved.kind, problem: p },
    });
    return refusedAtSend(p);
  }
}

const refusedAtSend = (p: Problem): SendOutcome => ({ status: p.status, body: p, sent: false });

/** The create a held request holds, read back as it was asked (its ref_id stored with it). */
export function heldCreate(held: Pick<ApprovalRow, "id" | "kind" | "profile_id" | "request_json">): Create {
  const kind = held.kind;
  if (kind !== "order" && kind !== "transfer") throw new Error(`approval ${held.id} holds no create`);
  return storedCreate(kind, held.profile_id, JSON.parse(held.request_json));
}

interface Weighed {
  verdict: Verdict;
  /** The journal entry written for a send. */
  entry?: JournalEntry;
  /** The request written for a hold. */
  held?: ApprovalRow;
  /** The earlier create this one was confirmed to repeat (the repeat question's answer). */
  repeatOf?: string | null;
}

/** What a create is weighed with, before the totals read in the lock (controls/verdict.ts). */
type Asked = Omit<Weighing, "create" | "totals"> & {
  requester: SignedInUser;
  /** The Confirm-Duplicate header: the earlier create the person confirmed to repeat. */
  confirmRepeatOf?: string | null;
};

/**
 * In the requester's lock: the repeat question, their totals, the verdict, and what it calls
 * for written (the journal entry of a send, the request of a hold), so that parallel creates
 * by one person are weighed one after another against what the others wrote. A hold needs the
 * funds read first (a request the service would surely refuse is refused at once, never held):
 * when they were not, the lock is let go, they are read, and the create weighed again.
 */
async function weighAndWrite(rt: Runtime, create: Create, w: Asked): Promise<Weighed> {
  let facts = w.facts;
  for (;;) {
    const step = await inPersonLock(rt.db, w.requester.email, async (tx): Promise<Weighed | "funds"> => {
      // One moment on the runtime's clock for the whole weighing, and for what it writes.
      const now = new Date(rt.clock.now());
      // An approved request was asked about when it was held.
      const repeatOf = w.approved ? null : await askAboutRepeats(tx, w.requester, create, w.confirmRepeatOf, now);
      const totals = await totalsFor(tx, w.requester.email, create, now);
      const verdict = verdictOf({ ...w, create, facts, ...totals });
      if ("refuse" in verdict) return { verdict };
      if ("hold" in verdict) {
        if (facts.funds === undefined) return "funds";
        await earlierEntry(tx, create, w.requester);
        return { verdict, repeatOf, held: await writeHold(tx, w.requester, create, verdict.hold, now) };
      }
      return {
        verdict,
        repeatOf,
        entry: await writeEntry(tx, create, w, { valueUsd: verdict.send.valueUsd, repeatOf, now }),
      };
    }).catch((error: unknown) => {
      // Someone else took the ref_id in the same instant: the unique constraint caught it.
      if (error instanceof JournalRefIdTaken || isUniqueViolation(error)) throw refIdTaken(create);
      throw error;
    });
    if (step !== "funds") return step;
    facts = { ...facts, funds: await readFunds(rt, create) };
  }
}

/** The journal entry of a send: a new one, or the requester's own failed one reopened for another attempt. */
async function writeEntry(
  tx: Kysely<Database>,
  create: Create,
  w: Asked,
  { valueUsd, repeatOf, now }: { valueUsd: string | null; repeatOf: string | null; now: Date },
) {
  const failed = await earlierEntry(tx, create, w.requester);
  const attempt = { userRole: w.requester.role, valueUsd, approvalId: w.approved?.id ?? null };
  if (failed) {
    const reopened = await reopenEntry(tx, failed.id, attempt);
    if (!reopened) throw inProgress(create);
    return reopened;
  }
  return beginEntry(tx, {
    kind: create.kind,
    refId: refIdOf(create),
    userEmail: w.requester.email,
    userRole: w.requester.role,
    profileId: create.profileId,
    toProfileId: toProfileOf(create),
    request: create.request,
    valueUsd,
    repeatOf,
    approvalId: w.approved?.id,
    // The mid the controls read when the dashboard received the create, for its execution quality
    // (an approved request's: the mid when it was released, the moment it is sent).
    arrivalMid: w.facts.quote ? trimZeros(w.facts.quote.mid) : null,
    at: now,
  });
}

/**
 * The ref_id's journal entry as seen inside the lock: none, or this requester's own failed
 * attempt of this very create. Anything else (taken meanwhile, being sent, declined) is refused.
 */
async function earlierEntry(tx: Kysely<Database>, create: Create, requester: SignedInUser) {
  const entry = await journalEntryOfRef(tx, create.kind, refIdOf(create));
  if (!entry) return undefined;
  if (entry.user_email !== requester.email || !isSameCreate(create, entry.profile_id, entry.request)) {
    throw refIdTaken(create);
  }
  if (entry.status === "failed") return entry;
  throw inProgress(create);
}

const inProgress = (create: Create) =>
  new ProblemError(
    problem(
      409,
      "Already In Progress",
      `A request with ref_id ${refIdOf(create)} is already journaled; its result shows in Activity.`,
      {
        ref_id: refIdOf(create),
      },
    ),
  );

async function auditRefusal(
  rt: Runtime,
  user: SignedInUser,
  create: Create,
  refusal: Refusal,
  ip: string | null,
  approvalId?: string,
) {
  const detail = {
    kind: create.kind,
    ref_id: refIdOf(create),
    ...weighedAsTransferNote(create),
    problem: refusal.problem,
  };
  if (!approvalId || refusal.action === "limit.refused") {
    const refused = {
      kind: create.kind,
      ref_id: refIdOf(create),
      profile_id: create.profileId,
      requested_by: user.email,
      problem: refusal.problem,
    };
    const events = limitRefusedEvents(refusal.action, refused, new Date(rt.clock.now()));
    await rt.audit.append({ action: refusal.action, actor: user, ip, subject: refIdOf(create), detail, events });
  }
  if (approvalId) {
    await rt.audit.append({ action: "approval.send_refused", actor: user, ip, subject: approvalId, detail });
  }
}

async function auditGuardConfirmed(
  rt: Runtime,
  user: SignedInUser,
  create: Create,
  verdict: Verdict,
  ip: string | null,
) {
  const terms = "send" in verdict ? verdict.send : "hold" in verdict ? verdict.hold : undefined;
  if (!terms?.guardConfirmed) return;
  await rt.audit.append({
    action: "price-guard.confirmed",
    actor: user,
    ip,
    subject: terms.guardConfirmed.market,
    detail: { ...terms.guardConfirmed, ref_id: refIdOf(create) },
  });
}
