import "server-only";
import type * as z from "zod";
import { declineRepeatBodySchema } from "@/lib/server/http/route-schemas";
import { fieldProblem, parseOr400 } from "@/lib/server/http/toolkit";
import { can } from "@/lib/shared/roles";
import { problem, ProblemError } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { canonicalJson } from "../canonical-json";
import { approvalRowOfRef } from "../db/approvals";
import { JournalRefIdTaken, journalEntryOfRef, recordDeclined, type JournalEntry } from "../db/journal";
import { inPersonLock } from "../db/person-lock";
import { requestKey } from "../db/request-key";
import type { Runtime } from "../runtime";
import { refIdOf, toProfileOf, type Create } from "./create";
import { storedCreate } from "./parse";

/**
 * "Don't send", the other answer to the repeat question: the create the person chose not to send
 * is journaled as a 'declined' entry naming the earlier create it repeated, and audited. Nothing
 * is sent, and its ref_id can never be sent. Only the person's own repeat may be declined: the
 * request must repeat their own `duplicate_of` (the same request apart from its ref_id), under a
 * ref_id nobody has used, so no one can plant a 'declined' entry under someone else's request.
 */

export async function declineRepeat(rt: Runtime, user: SignedInUser, input: unknown): Promise<JournalEntry> {
  const answer = parseOr400(declineRepeatBodySchema, input);
  const action = answer.kind === "order" ? "orders:create" : "transfers:create";
  if (!can(user.role, action)) {
    const detail = `The ${user.role} role may not do this (${action}).`;
    throw new ProblemError(problem(403, "Forbidden", detail, { role: user.role, action }));
  }
  const create = declinedCreate(answer);
  await checkRepeatOfOwn(rt, user, create, answer.duplicate_of);
  const entry = await inPersonLock(rt.db, user.email, async (tx) => {
    if (await approvalRowOfRef(tx, create.kind, refIdOf(create))) throw refIdNotNew(create);
    try {
      return await recordDeclined(tx, {
        kind: create.kind,
        refId: refIdOf(create),
        userEmail: user.email,
        userRole: user.role,
        profileId: create.profileId,
        toProfileId: toProfileOf(create) ?? null,
        request: create.request,
        repeatOf: answer.duplicate_of,
        at: new Date(rt.clock.now()),
      });
    } catch (error) {
      if (!(error instanceof JournalRefIdTaken)) throw error;
      // Answering twice keeps the one entry.
      const existing = error.existing;
      if (
        existing?.status === "declined" &&
        existing.user_email === user.email &&
        canonicalJson(existing.request) === canonicalJson(create.request)
      ) {
        return { ...existing, replayed: true as const };
      }
      throw refIdNotNew(create);
    }
  });
  if ("replayed" in entry) {
    const { replayed: _, ...existing } = entry;
    return existing;
  }
  await rt.audit.append({
    action: "create.declined",
    actor: user,
    subject: refIdOf(create),
    detail: {
      kind: create.kind,
      profile_id: create.profileId,
      request: create.request,
      duplicate_of: answer.duplicate_of,
    },
  });
  return entry;
}

function declinedCreate(answer: z.infer<typeof declineRepeatBodySchema>): Create {
  const profileId =
    answer.kind === "order" ? answer.profile_id : (answer.request.from_profile_id as string | undefined);
  if (answer.kind === "order" && !profileId) {
    throw new ProblemError(
      problem(400, "Bad Request", "profile_id: required", { errors: [{ field: "profile_id", message: "Required" }] }),
    );
  }
  return storedCreate(answer.kind, profileId ?? "", answer.request);
}

/** The earlier create must be the person's own, and the declined one the same request under another ref_id. */
async function checkRepeatOfOwn(rt: Runtime, user: SignedInUser, create: Create, repeatOf: string) {
  const [sent, held] = await Promise.all([
    journalEntryOfRef(rt.db, create.kind, repeatOf),
    approvalRowOfRef(rt.db, create.kind, repeatOf),
  ]);
  const earlier = sent
    ? { by: sent.user_email, profileId: sent.profile_id, request: sent.request }
    : held && { by: held.requested_by, profileId: held.profile_id, request: JSON.parse(held.request_json) as unknown };
  if (earlier?.by !== user.email) {
    throw new ProblemError(problem(404, "Not Found", `You sent no ${create.kind} with ref_id ${repeatOf}.`));
  }
  if (earlier.profileId !== create.profileId || requestKey(earlier.request) !== requestKey(create.request)) {
    throw fieldProblem(
      "request",
      `request must repeat your ${create.kind} ${repeatOf} (the same request apart from its ref_id)`,
    );
  }
}

const refIdNotNew = (create: Create) => {
  const message = `ref_id ${refIdOf(create)} is already in use; only a new ref_id can be declined`;
  return new ProblemError(
    problem(409, "Already Exists", `request.ref_id: ${message}`, {
      ref_id: refIdOf(create),
      errors: [{ field: "request.ref_id", message }],
    }),
  );
};
