import "server-only";
import { parseOr400 } from "@/lib/http";
import { newRefId } from "@/lib/ref-id";
import {
  compareDecimal,
  createInternalTransferRequestSchema,
  createOrderRequestSchema,
  isProblem,
  problem,
  ProblemError,
  type CreateOrderRequest,
  type Order,
  type Problem,
  type Transfer,
} from "@/lib/spec";
import type { SignedInUser } from "./auth/session";
import {
  beginEntry,
  completeEntry,
  DuplicateJournalEntry,
  findByRefId as journalEntryOf,
  reopenEntry,
  type JournalEntry,
  type JournalKind,
} from "./db/journal";
import { checkForDuplicate, sameJson } from "./duplicates";
import type { Runtime } from "./runtime";
import { UpstreamError, upstreamProblem, type UpstreamClient } from "./upstream/client";

/**
 * The two creates of the service, Create Order and Create Internal Transfer, sent exactly
 * once in effect: validated with lib/spec, journaled before they are sent, retried only with
 * the same ref_id, and a 409 "already exists" for our own ref_id resolved to the original record.
 * A new create that repeats one the same person sent moments ago is first asked about
 * (lib/server/duplicates.ts).
 */

export interface CreateResult {
  status: number;
  body: unknown;
}

/** What came with the request besides its body. */
export interface CreateOptions {
  /** The Confirm-Duplicate header: the ref_id of the recent create the person chose to repeat. */
  confirmDuplicateOf?: string;
}

/** Create Order; `profileId` is a validated path id. */
export async function createOrder(
  rt: Runtime,
  profileId: string,
  input: unknown,
  user: SignedInUser,
  options: CreateOptions = {},
) {
  const request = parseOr400(orderRequestSchema, input);
  const body = { ...request, ref_id: request.ref_id ?? newRefId() };
  return createOnce(rt, user, {
    kind: "order",
    path: `/profiles/${profileId}/orders`,
    body,
    profileId,
    matches: (record) => isSameOrder(profileId, body, record),
    confirmDuplicateOf: options.confirmDuplicateOf,
  });
}

// `now` is read at parse time, so the schema is built once.
const orderRequestSchema = createOrderRequestSchema();

/** Create Internal Transfer. */
export async function createInternalTransfer(
  rt: Runtime,
  input: unknown,
  user: SignedInUser,
  options: CreateOptions = {},
) {
  const request = parseOr400(createInternalTransferRequestSchema, input);
  const body = { ...request, ref_id: request.ref_id ?? newRefId() };
  return createOnce(rt, user, {
    kind: "transfer",
    path: "/transfer/internal",
    body,
    profileId: body.from_profile_id,
    toProfileId: body.to_profile_id,
    matches: (record) => {
      const t = record as Partial<Transfer>;
      return t.profile_id === body.from_profile_id && t.asset === body.asset && sameAmount(body.amount, t.amount);
    },
    confirmDuplicateOf: options.confirmDuplicateOf,
  });
}

/** One create, described for the journal and the service. */
export interface CreateSpec {
  kind: JournalKind;
  path: string;
  /** The validated request, ref_id included. */
  body: { ref_id: string };
  profileId: string;
  toProfileId?: string;
  /** True when a record found by our ref_id is the one this request describes. */
  matches: (record: unknown) => boolean;
  confirmDuplicateOf?: string;
}

const RETRY_DELAYS_MS = [300, 1000];
/** A browser waits at most about this long; past it the journal keeps the entry for reconciliation. */
const GIVE_UP_AFTER_MS = 25_000;

/** Journals, sends (with retries), and completes the journal entry with the outcome. */
export async function createOnce(rt: Runtime, user: SignedInUser, spec: CreateSpec): Promise<CreateResult> {
  const entry = await claimEntry(rt, user, spec);
  if ("replay" in entry) return entry.replay;
  const started = performance.now();
  const outcome = await sendWithRetries(rt.upstream, spec, started);
  const latencyMs = performance.now() - started;
  await completeEntry(
    rt.db,
    entry.id,
    outcome.failed
      ? { status: "failed", httpStatus: outcome.status, latencyMs, problem: outcome.failed }
      : { status: "succeeded", httpStatus: outcome.status, latencyMs, record: outcome.body },
  );
  return { status: outcome.status, body: outcome.body };
}

/** The journal entry for this attempt, or the earlier outcome when the same request is replayed. */
async function claimEntry(rt: Runtime, user: SignedInUser, spec: CreateSpec) {
  const fresh = { userEmail: user.email, userRole: user.role, request: spec.body };
  try {
    // A ref_id already journaled is a retry or replay of that create, never a new repeat to ask about.
    const known = await journalEntryOf(rt.db, spec.kind, spec.body.ref_id);
    const duplicateOf = known ? null : await checkForDuplicate(rt, user, spec, spec.confirmDuplicateOf);
    const base = { kind: spec.kind, refId: spec.body.ref_id, profileId: spec.profileId, toProfileId: spec.toProfileId };
    return await beginEntry(rt.db, { ...base, ...fresh, duplicateOf });
  } catch (error) {
    if (!(error instanceof DuplicateJournalEntry) || !error.existing) throw error;
    const existing = error.existing;
    if (existing.status === "succeeded") {
      if (sameJson(existing.request, spec.body) || spec.matches(existing.record)) {
        return { replay: { status: 200, body: existing.record } };
      }
      // The same ref_id for a different request is a new create that must not pass for the old one.
      throw new ProblemError(differentRecord(spec));
    }
    if (existing.status === "declined") {
      const detail = `ref_id ${spec.body.ref_id} was declined as a repeat and never sent. Start a new ${spec.kind} to get a new ref_id.`;
      throw new ProblemError(problem(409, "Declined", detail, { ref_id: spec.body.ref_id }));
    }
    const reopened: JournalEntry | undefined =
      existing.status === "failed" ? await reopenEntry(rt.db, existing.id, fresh) : undefined;
    if (reopened) return reopened;
    const detail = `A request with ref_id ${spec.body.ref_id} is still being sent; its result will show in Activity.`;
    throw new ProblemError(problem(409, "Already In Progress", detail));
  }
}

type Outcome = CreateResult & { failed?: Problem };

async function sendWithRetries(upstream: UpstreamClient, spec: CreateSpec, started: number): Promise<Outcome> {
  let last: Outcome = { status: 502, body: null };
  for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[attempt - 1]));
    try {
      const res = await upstream.request({ method: "POST", path: spec.path, body: spec.body });
      if (res.status >= 200 && res.status < 300) return { status: 200, body: res.body };
      if (isAlreadyExists(res.status, res.body)) return resolveExisting(upstream, spec, res.body as Problem);
      last = failure(
        isProblem(res.body) ? res.body : problem(res.status, "Service Error", `The service answered ${res.status}.`),
      );
      if (res.status < 500 && res.status !== 429) return last;
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      last = failure(upstreamProblem(error));
      // Never sent (refused credentials, no connection while getting a token): another try sends nothing new.
      if (!error.maybeDelivered && error.stage === "token") return last;
    }
    if (performance.now() - started > GIVE_UP_AFTER_MS) break;
  }
  // The last attempt may still have reached the service: ask it before calling this a failure.
  const found = await findByRefId(upstream, spec.kind, spec.body.ref_id).catch(() => undefined);
  return found && spec.matches(found) ? { status: 200, body: found } : last;
}

const failure = (p: Problem): Outcome => ({ status: p.status, body: p, failed: p });

const isAlreadyExists = (status: number, body: unknown) =>
  status === 409 && isProblem(body) && /already.exists/i.test(`${body.type} ${body.title}`);

/** A 409 for our ref_id: an earlier attempt got through. Answer with that record, if it is ours. */
async function resolveExisting(upstream: UpstreamClient, spec: CreateSpec, conflict: Problem): Promise<Outcome> {
  const found = await findByRefId(upstream, spec.kind, spec.body.ref_id).catch(() => undefined);
  if (found && spec.matches(found)) return { status: 200, body: found };
  return failure({ ...conflict, status: 409, detail: differentRecord(spec).detail });
}

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

const sameAmount = (a: string | undefined, b: string | undefined) =>
  a === undefined ? !b : Boolean(b) && compareDecimal(a, b!) === 0;

/** True when `record` is the order `request` describes (so a 409 for our ref_id is our own order). */
function isSameOrder(profileId: string, request: CreateOrderRequest, record: unknown): boolean {
  const o = record as Partial<Order>;
  return (
    o.profile_id === profileId &&
    o.side === request.side &&
    o.market === request.market &&
    o.type === request.type &&
    sameAmount(request.base_amount, o.base_amount) &&
    sameAmount(request.quote_amount, o.quote_amount) &&
    sameAmount(request.price, o.price)
  );
}

const differentRecord = (spec: CreateSpec): Problem =>
  problem(
    409,
    "Already Exists",
    `ref_id ${spec.body.ref_id} already belongs to a different ${spec.kind}. Start a new ${spec.kind} to get a new ref_id.`,
    { ref_id: spec.body.ref_id },
  );
