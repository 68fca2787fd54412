import "server-only";
import * as z from "zod";
import {
  CONFIRM_DUPLICATE_HEADER,
  POSSIBLE_DUPLICATE_TYPE,
  repeatQuestion,
  type PreviousCreate,
} from "@/lib/duplicates";
import { parseOr400 } from "@/lib/http";
import type { CreateKind } from "@/lib/policy";
import { can } from "@/lib/roles";
import {
  createInternalTransferRequestSchema,
  createOrderRequestSchema,
  identifier,
  problem,
  ProblemError,
  refIdSchema,
  type Problem,
} from "@/lib/spec";
import { approvalOfRef, heldRepeatsSince } from "./approvals";
import type { SignedInUser } from "./auth/session";
import { DuplicateJournalEntry, findByRefId, listRepeatsSince, recordDeclined, type JournalEntry } from "./db/journal";
import { canonicalJson } from "./canonical-json";
import type { Runtime } from "./runtime";

/**
 * A second click, a second tab, Enter pressed twice: the same order or transfer sent again by
 * the same person moments later is almost always a mistake, and the service would make it
 * twice (a new ref_id is a new create). So before a create is journaled, the journal and the
 * held requests are asked whether this person sent the same request (apart from its ref_id)
 * within the window, sent or waiting for approval (two held twins could both be approved); if so,
 * the create is refused with a 409 that asks "Send another?" until the person answers:
 * "send another" is the Confirm-Duplicate header naming the earlier ref_id, "don't send" is a
 * 'declined' journal entry (declineDuplicate). Both answers are journaled.
 */

/** How long after a create the same request by the same person is asked about. */
export const DUPLICATE_WINDOW_MS = 60_000;

/** The parts of a create the check reads. */
export interface CreateToCheck {
  kind: CreateKind;
  profileId: string;
  /** The validated request, ref_id included. */
  body: { ref_id: string };
}

/**
 * Throws the possible-duplicate 409 when `create` repeats a recent create of this person that
 * `confirmedOf` (the Confirm-Duplicate header) does not name. Returns the ref_id of the create
 * it was confirmed to repeat, for the journal, or null when it repeats nothing.
 */
export async function checkForDuplicate(
  rt: Runtime,
  user: SignedInUser,
  create: CreateToCheck,
  confirmedOf: string | undefined,
  now = new Date(),
): Promise<string | null> {
  const filter = {
    kind: create.kind,
    userEmail: user.email,
    profileId: create.profileId,
    request: create.body,
    since: new Date(now.getTime() - DUPLICATE_WINDOW_MS),
  };
  const [sent, held] = await Promise.all([listRepeatsSince(rt.db, filter), heldRepeatsSince(rt, filter)]);
  const twin = [...sent, ...held.map((h) => ({ ...h, held: true }))]
    .filter((e) => e.ref_id !== create.body.ref_id)
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
  if (!twin) return null;
  // The newest repeat must be the one confirmed: a third tab's send since the question is asked about anew.
  if (confirmedOf === twin.ref_id) return twin.ref_id;
  throw new ProblemError(possibleDuplicate(twin, now));
}

/** The 409 that asks the question, naming the earlier create (sent, or held for approval). */
export function possibleDuplicate(
  previous: { ref_id: string; created_at: string; held?: boolean },
  now: Date,
): Problem {
  const secondsAgo = Math.max(1, Math.round((now.getTime() - Date.parse(previous.created_at)) / 1000));
  const meta: { previous: PreviousCreate; confirm_header: string } = {
    previous: {
      ref_id: previous.ref_id,
      created_at: previous.created_at,
      seconds_ago: secondsAgo,
      ...(previous.held ? { held: true } : {}),
    },
    confirm_header: CONFIRM_DUPLICATE_HEADER,
  };
  return {
    type: POSSIBLE_DUPLICATE_TYPE,
    title: "Possible Duplicate",
    status: 409,
    detail: repeatQuestion(meta.previous),
    meta,
  };
}

/** Equal as JSON values, whatever the order of their keys. */
export const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

const declinedSchema = z.strictObject({
  kind: z.enum(["order", "transfer"], { error: "kind must be order or transfer" }),
  profile_id: z.optional(identifier("Profile ID")),
  request: z.record(z.string(), z.unknown(), { error: "request must be the create that was not sent" }),
  duplicate_of: refIdSchema,
});

// A declined order is journaled as it was asked, even if its GTT expiry passed while the question was open.
const askedOrderSchema = createOrderRequestSchema({ now: () => 0 });

/**
 * "Don't send": journals the create the person chose not to send, as a 'declined' entry
 * naming the earlier create it repeated. Nothing is sent. Answering twice keeps one entry.
 */
export async function declineDuplicate(rt: Runtime, user: SignedInUser, input: unknown): Promise<JournalEntry> {
  const answer = parseOr400(declinedSchema, input);
  const order = answer.kind === "order";
  const action = order ? "orders:create" : "transfers:create";
  if (!can(user.role, action)) {
    const detail = `The ${user.role} role may not do this (${action}).`;
    throw new ProblemError(problem(403, "Forbidden", detail, { role: user.role, action }));
  }
  const request = parseOr400(order ? askedOrderSchema : createInternalTransferRequestSchema, answer.request);
  const refId = request.ref_id;
  const profileId = order ? answer.profile_id : (request as { from_profile_id: string }).from_profile_id;
  if (!refId || !profileId) {
    const field = refId ? "profile_id" : "request.ref_id";
    throw new ProblemError(
      problem(400, "Bad Request", `${field}: required`, { errors: [{ field, message: "Required" }] }),
    );
  }
  const [sent, held] = await Promise.all([
    findByRefId(rt.db, answer.kind, answer.duplicate_of),
    approvalOfRef(rt, answer.kind, answer.duplicate_of),
  ]);
  if ((sent?.user_email ?? held?.requested_by) !== user.email) {
    const detail = `You sent no ${answer.kind} with ref_id ${answer.duplicate_of}.`;
    throw new ProblemError(problem(404, "Not Found", detail));
  }
  try {
    return await recordDeclined(rt.db, {
      kind: answer.kind,
      refId,
      userEmail: user.email,
      userRole: user.role,
      profileId,
      toProfileId: order ? null : (request as { to_profile_id: string }).to_profile_id,
      request,
      duplicateOf: answer.duplicate_of,
    });
  } catch (error) {
    if (!(error instanceof DuplicateJournalEntry)) throw error;
    const existing = error.existing;
    if (existing?.status === "declined" && sameJson(existing.request, request)) return existing;
    const detail = `ref_id ${refId} is already in the journal; it was not declined.`;
    throw new ProblemError(problem(409, "Already Exists", detail));
  }
}
