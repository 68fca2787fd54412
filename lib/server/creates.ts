import "server-only";
import type { CreateKind } from "@/lib/policy";
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
import { approvalOfRef } from "./approvals";
import { applyControls } from "./controls";
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

/** Who asks, from where, and what they confirmed: what the controls and the audit trail need. */
export interface CreateContext {
  user: SignedInUser;
  ip: string | null;
  /** The market's name, typed to confirm an order past the price guard (header Confirm-Price-Guard). */
  confirmedMarket?: string | null;
  /** The Confirm-Duplicate header: the ref_id of the recent create the person chose to repeat. */
  confirmDuplicateOf?: string | null;
}

/** Create Order; `profileId` is a validated path id. */
export async function createOrder(rt: Runtime, profileId: string, input: unknown, ctx: CreateContext) {
  const request = parseOr400(orderRequestSchema, input);
  const body = { ...request, ref_id: request.ref_id ?? newRefId() };
  return controlled(rt, ctx, createSpecOf("order", profileId, body));
}

// `now` is read at parse time, so the schema is built once.
const orderRequestSchema = createOrderRequestSchema();

/** Create Internal Transfer. */
export async function createInternalTransfer(rt: Runtime, input: unknown, ctx: CreateContext) {
  const request = parseOr400(createInternalTransferRequestSchema, input);
  const body = { ...request, ref_id: request.ref_id ?? newRefId() };
  return controlled(rt, ctx, createSpecOf("transfer", body.from_profile_id, body));
}

/**
 * Through the desk's controls (lib/server/controls.ts): refused, held for approval (202), or
 * sent. A ref_id already journaled or held is a retry or replay of that create: it is answered
 * with its record (createOnce) or its approval, neither asked about nor checked again.
 * Otherwise "You sent this 3 s ago. Send another?" (lib/server/duplicates.ts) is asked of the
 * person first, so an approver's later send of a held request is never asked.
 */
async function controlled(rt: Runtime, ctx: CreateContext, spec: CreateSpec): Promise<CreateResult> {
  const { kind, profileId, body } = spec;
  if (await journalEntryOf(rt.db, kind, body.ref_id)) return createOnce(rt, ctx.user, spec, ctx.ip);
  const held = await approvalOfRef(rt, kind, body.ref_id);
  if (held) return { status: 202, body: { approval: held } };
  const duplicateOf = await checkForDuplicate(rt, ctx.user, spec, ctx.confirmDuplicateOf ?? undefined);
  const controls = await applyControls(
    rt,
    ctx.user,
    { kind, profileId, body, confirmedMarket: ctx.confirmedMarket, duplicateOf },
    ctx.ip,
  );
  if ("hold" in controls) return { status: 202, body: { approval: controls.hold } };
  return createOnce(rt, ctx.user, { ...spec, valueUsd: controls.send.valueUsd, duplicateOf }, ctx.ip);
}

/** One create, described for the journal and the service. */
export interface CreateSpec {
  kind: CreateKind;
  path: string;
  /** The validated request, ref_id included. */
  body: { ref_id: string };
  profileId: string;
  toProfileId?: string;
  /** True when a record found by our ref_id is the one this request describes. */
  matches: (record: unknown) => boolean;
  /** Its worth in USD, as the controls valued it (for the daily limit). */
  valueUsd?: string;
  /** The earlier create this one repeats, when the person confirmed sending it again. */
  duplicateOf?: string | null;
}

const RETRY_DELAYS_MS = [300, 1000];
/** A browser waits at most about this long; past it the journal keeps the entry for reconciliation. */
const GIVE_UP_AFTER_MS = 25_000;

/** Journals, sends (with retries), and completes the journal entry with the outcome; each step audited. */
export async function createOnce(
  rt: Runtime,
  user: SignedInUser,
  spec: CreateSpec,
  ip: string | null = null,
): Promise<CreateResult> {
  const entry = await claimEntry(rt, user, spec);
  if ("replay" in entry) return entry.replay;
  const subject = spec.body.ref_id;
  const asked = { kind: spec.kind, profile_id: spec.profileId, request: spec.body, value_usd: spec.valueUsd ?? null };
  await rt.audit.append({ action: "create.requested", actor: user, ip, subject, detail: asked });
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
  await rt.audit.append({
    action: outcome.failed ? "create.failed" : "create.succeeded",
    actor: user,
    ip,
    subject,
    detail: {
      kind: spec.kind,
      http_status: outcome.status,
      ...(outcome.failed ? { problem: outcome.failed } : { record: outcome.body }),
    },
  });
  // Pushed to every open screen the moment the service answers, before the watcher's next look.
  if (!outcome.failed) rt.live.publish({ name: spec.kind, data: outcome.body });
  return { status: outcome.status, body: outcome.body };
}

/** The journal entry for this attempt, or the earlier outcome when the same request is replayed. */
async function claimEntry(rt: Runtime, user: SignedInUser, spec: CreateSpec) {
  const fresh = { userEmail: user.email, userRole: user.role, request: spec.body };
  try {
    const base = {
      kind: spec.kind,
      refId: spec.body.ref_id,
      profileId: spec.profileId,
      toProfileId: spec.toProfileId,
      valueUsd: spec.valueUsd,
      duplicateOf: spec.duplicateOf,
    };
    return await beginEntry(rt.db, { ...base, ...fresh });
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

/** The spec of a create whose request is already checked, as an approved request is sent. */
export function createSpecOf(kind: CreateKind, profileId: string, body: object & { ref_id: string }): CreateSpec {
  if (kind === "order") {
    const order = body as unknown as CreateOrderRequest & { ref_id: string };
    return {
      kind,
      path: `/profiles/${profileId}/orders`,
      body: order,
      profileId,
      matches: (record: unknown) => isSameOrder(profileId, order, record),
    } satisfies CreateSpec;
  }
  const transfer = body as unknown as {
    from_profile_id: string;
    to_profile_id: string;
    asset: string;
    amount: string;
    ref_id: string;
  };
  return {
    kind,
    path: "/transfer/internal",
    body: transfer,
    profileId: transfer.from_profile_id,
    toProfileId: transfer.to_profile_id,
    matches: (record: unknown) => {
      const t = record as Partial<Transfer>;
      return (
        t.profile_id === transfer.from_profile_id && t.asset === transfer.asset && sameAmount(transfer.amount, t.amount)
      );
    },
  } satisfies CreateSpec;
}
