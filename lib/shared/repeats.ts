import type { Problem } from "@/lib/spec/problem";

/**
 * "You sent this 3 s ago. Send another?": the back end refuses a create that repeats one the
 * same person sent moments before (a repeat: the same request under another ref_id;
 * lib/server/create/repeat-question.ts) until they answer. Shared by the back end that asks
 * and the forms that show the question. The wire keeps its documented names
 * (`/problems/possible-duplicate`, `Confirm-Duplicate`, `duplicate_of`).
 */

/** The 409's own problem type, so the forms tell it from the service's conflicts. */
export const REPEAT_QUESTION_TYPE = "/problems/possible-duplicate";

/**
 * The answer "send another", as a request header naming the earlier create's ref_id. Not a
 * body field: the service's requests are strict and refuse any field they do not know.
 */
export const CONFIRM_REPEAT_HEADER = "Confirm-Duplicate";

/** The earlier create the question is about, in the problem's `meta.previous`. */
export interface PreviousCreate {
  ref_id: string;
  created_at: string;
  seconds_ago: number;
  /** True when it was held for approval, not sent (yet). */
  held?: boolean;
}

/** The question, in the same words on the back end's problem and in the forms. */
export const repeatQuestion = (previous: PreviousCreate): string =>
  previous.held
    ? `You asked for this ${previous.seconds_ago} s ago; it awaits approval. Send another?`
    : `You sent this ${previous.seconds_ago} s ago. Send another?`;

/** The earlier create the repeat question names, or undefined for any other problem. */
export function previousCreateOf(problem: Problem): PreviousCreate | undefined {
  if (problem.type !== REPEAT_QUESTION_TYPE) return undefined;
  const previous = problem.meta?.previous as PreviousCreate | undefined;
  return typeof previous?.ref_id === "string" ? previous : undefined;
}

/**
 * `POST /api/activity/declined`: the person answered "don't send"; the journal keeps the answer.
 * `request` must repeat the person's own `duplicate_of` (the same request apart from its ref_id),
 * under a ref_id nobody has used.
 */
export interface DeclinedCreate {
  kind: "order" | "transfer";
  /** The order's profile (its path id); a transfer names its profiles in the request. */
  profile_id?: string;
  /** The request that was not sent, ref_id included. */
  request: Record<string, unknown>;
  /** The ref_id of the earlier create it repeated. */
  duplicate_of: string;
}
