import "server-only";
import { CONFIRM_REPEAT_HEADER, REPEAT_QUESTION_TYPE, repeatQuestion, type PreviousCreate } from "@/lib/shared/repeats";
import { ProblemError, type Problem } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import type { Db } from "../db";
import { heldRepeatsSince } from "../db/approvals";
import { listRepeatsSince } from "../db/journal";
import { refIdOf, type Create } from "./create";

/**
 * Step 3, the repeat question. A second click, a second tab, Enter pressed twice: the same
 * order or transfer sent again by the same person moments later under a new ref_id (a repeat)
 * is almost always a mistake, and the service would make it twice. So the journal and the held
 * requests are asked whether this person sent the same request (apart from its ref_id) within
 * the window, sent or waiting for approval (two held twins could both be approved); if so, the
 * create is refused with a 409 that asks "Send another?" until the person answers: "send
 * another" is the Confirm-Duplicate header naming the earlier ref_id, "don't send" is a
 * 'declined' journal entry (decline-repeat.ts). Both answers are journaled. Asked in the
 * person's lock (pipeline.ts), against what their parallel creates wrote: ten identical
 * requests at once are one send and nine questions, not ten sends.
 *
 * Words: the code says "repeat"; the wire and the database keep "duplicate", their documented
 * name. `repeatOf` is the journal's column and the audit trail's field `duplicate_of` (as is
 * "don't send"'s `duplicate_of`), the answer "send another" the header `Confirm-Duplicate`
 * (CONFIRM_REPEAT_HEADER), the question the problem type `/problems/possible-duplicate`
 * (REPEAT_QUESTION_TYPE).
 */

/** How long after a create the same request by the same person is asked about. */
export const REPEAT_WINDOW_MS = 60_000;

/**
 * Throws the repeat question (409) when `create` repeats a recent create of this person that
 * `confirmedOf` (the Confirm-Duplicate header) does not name. Returns the ref_id of the create
 * it was confirmed to repeat, for the journal, or null when it repeats nothing.
 */
export async function askAboutRepeats(
  db: Db,
  user: SignedInUser,
  create: Create,
  confirmedOf: string | null | undefined,
  now = new Date(),
): Promise<string | null> {
  const filter = {
    kind: create.kind,
    userEmail: user.email,
    profileId: create.profileId,
    request: create.request,
    since: new Date(now.getTime() - REPEAT_WINDOW_MS),
  };
  const sent = await listRepeatsSince(db, filter);
  const held = await heldRepeatsSince(db, filter);
  const twin = [...sent, ...held.map((h) => ({ ...h, held: true }))]
    .filter((e) => e.ref_id !== refIdOf(create))
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
  if (!twin) return null;
  // The newest repeat must be the one confirmed: a third tab's send since the question is asked about anew.
  if (confirmedOf === twin.ref_id) return twin.ref_id;
  throw new ProblemError(repeatProblem(twin, now));
}

/** The 409 that asks the question, naming the earlier create (sent, or held for approval). */
export function repeatProblem(previous: { ref_id: string; created_at: string; held?: boolean }, now: Date): Problem {
  const secondsAgo = Math.max(1, Math.round((now.getTime() - Date.parse(previous.created_at)) / 1000));
  const meta: { previous: PreviousCreate; confirm_header: string } = {
    previous: {
      ref_id: previous.ref_id,
      created_at: previous.created_at,
      seconds_ago: secondsAgo,
      ...(previous.held ? { held: true } : {}),
    },
    confirm_header: CONFIRM_REPEAT_HEADER,
  };
  // The title is the documented wire's, as the type and the header are.
  return {
    type: REPEAT_QUESTION_TYPE,
    title: "Possible Duplicate",
    status: 409,
    detail: repeatQuestion(meta.previous),
    meta,
  };
}
