import "server-only";
import { isProblem, type Problem } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { getDb } from "../db";
import {
  beginEntry,
  completeEntry,
  DuplicateJournalEntry,
  reopenEntry,
  type JournalEntry,
  type JournalKind,
} from "../db/journal";
import { problem, ProblemError, serviceSignInFailed } from "../problem";
import { UpstreamError, UpstreamTimeout } from "../upstream/errors";
import { upstream } from "./upstream";

/** One create (an order or an internal transfer), described for the journal and the service. */
export interface CreateSpec {
  kind: JournalKind;
  path: string;
  scopes: readonly string[];
  /** The validated request, ref_id included. */
  body: { ref_id: string };
  profileId: string;
  toProfileId?: string;
  /** The record this ref_id created, asked of the service (after a timeout or a 409); throws when it cannot say. */
  findByRef: () => Promise<unknown>;
  /** True when a record found by our ref_id is the one this request describes. */
  matches: (record: unknown) => boolean;
}

export interface CreateResult {
  status: number;
  body: unknown;
}

const RETRY_DELAYS_MS = [300, 1000];
/** A browser waits at most about this long; past it the journal keeps the entry for reconciliation. */
const GIVE_UP_AFTER_MS = 25_000;

const isAlreadyExists = (status: number, body: unknown) =>
  status === 409 && isProblem(body) && /already.exists/i.test(`${body.type} ${body.title}`);

/**
 * Sends a create exactly once in effect: journaled before it is sent, retried only with the
 * same ref_id (after a timeout, a 5xx, a 429 or a dropped connection), and a 409 "already
 * exists" for our own ref_id resolved to the original record. No path makes a second one.
 */
export async function createOnce(spec: CreateSpec, user: SignedInUser): Promise<CreateResult> {
  const db = await getDb();
  const entry = await claimEntry(spec, user);
  if ("replay" in entry) return entry.replay;
  const started = performance.now();
  const finish = async (outcome: CreateResult & { failed?: Problem }) => {
    const latencyMs = performance.now() - started;
    await completeEntry(
      db,
      entry.id,
      outcome.failed
        ? { status: "failed", httpStatus: outcome.status, latencyMs, problem: outcome.failed }
        : { status: "succeeded", httpStatus: outcome.status, latencyMs, record: outcome.body },
    );
    return { status: outcome.status, body: outcome.body };
  };
  return finish(await sendWithRetries(spec, started));
}

/** The journal entry for this attempt, or the earlier outcome when the same request is replayed. */
async function claimEntry(spec: CreateSpec, user: SignedInUser): Promise<JournalEntry | { replay: CreateResult }> {
  const db = await getDb();
  const fresh = { userEmail: user.email, userRole: user.role, request: spec.body };
  try {
    return await beginEntry(db, {
      kind: spec.kind,
      refId: spec.body.ref_id,
      profileId: spec.profileId,
      toProfileId: spec.toProfileId,
      ...fresh,
    });
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
    const reopened = existing.status === "failed" ? await reopenEntry(db, existing.id, fresh) : undefined;
    if (reopened) return reopened;
    throw new ProblemError(
      problem(
        409,
        "Already In Progress",
        `A request with ref_id ${spec.body.ref_id} is still being sent; its result will show in Activity.`,
      ),
    );
  }
}

async function sendWithRetries(spec: CreateSpec, started: number): Promise<CreateResult & { failed?: Problem }> {
  let last: CreateResult & { failed?: Problem } = { status: 502, body: null };
  for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[attempt - 1]));
    try {
      const res = await upstream().request({ method: "POST", path: spec.path, scopes: spec.scopes, body: spec.body });
      if (res.status >= 200 && res.status < 300) return { status: 200, body: res.body };
      if (res.status === 401) {
        // Refused even with a fresh token: nothing was created, and retrying will not help.
        const failed = serviceSignInFailed();
        return { status: failed.status, body: failed, failed };
      }
      if (isAlreadyExists(res.status, res.body)) return resolveExisting(spec, res.body as Problem);
      const failed = isProblem(res.body)
        ? res.body
        : problem(res.status, "Service Error", `The service answered ${res.status}.`);
      last = { status: res.status, body: failed, failed };
      if (res.status < 500 && res.status !== 429) return last;
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      const failed =
        error instanceof UpstreamTimeout
          ? problem(504, "Service Timeout", "The service did not answer in time.")
          : problem(502, "Service Unreachable", "The service could not be reached.");
      last = { status: failed.status, body: failed, failed };
      if (!error.maybeDelivered && error.stage === "token") return last;
    }
    if (performance.now() - started > GIVE_UP_AFTER_MS) break;
  }
  // The last attempt may still have reached the service: ask it before calling this a failure.
  const found = await spec.findByRef().catch(() => undefined);
  return found && spec.matches(found) ? { status: 200, body: found } : last;
}

/** A 409 for our ref_id: an earlier attempt got through. Answer with that record, if it is ours. */
async function resolveExisting(spec: CreateSpec, conflict: Problem): Promise<CreateResult & { failed?: Problem }> {
  const found = await spec.findByRef().catch(() => undefined);
  if (found && spec.matches(found)) return { status: 200, body: found };
  const failed: Problem = { ...conflict, status: 409, detail: differentRecord(spec).detail };
  return { status: 409, body: failed, failed };
}

/** Equal as JSON values, whatever the order of their keys. */
function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : typeof v === "object" && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

const differentRecord = (spec: CreateSpec): Problem =>
  problem(
    409,
    "Already Exists",
    `ref_id ${spec.body.ref_id} already belongs to a different ${spec.kind}. Start a new ${spec.kind} to get a new ref_id.`,
    { ref_id: spec.body.ref_id },
  );
