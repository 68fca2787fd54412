import { FINAL_ORDER_STATUSES, FINAL_TRANSFER_STATUSES } from "@/lib/spec/enums";
import type { JournalEntry, JournalStatus } from "./journal-entry";
import { statusWords } from "./status-words";

/**
 * What came of a journal entry as the desk reads it. The journal's status says how the request
 * went over HTTP; an order the service took and then REJECTED (a post-only limit that would have
 * crossed the book) or a transfer it answered FAILED is no success, whatever that answer was.
 * One set of words for the activity's badges, its Status filter and its CSV.
 */

/** A journal entry as GET /api/activity lists it: its record's status at the service when the list was read, if it could be. */
export type ActivityEntry = JournalEntry & { record_status_now?: string };

export type ActivityResult = "waiting" | "accepted" | "rejected" | "failed" | "declined";

export const RESULT_WORDS: Record<ActivityResult, string> = {
  waiting: "Waiting",
  accepted: "Accepted",
  rejected: "Rejected",
  failed: "Failed",
  declined: "Not sent",
};

/** The service's statuses of a record it turned down after taking the request. */
const TURNED_DOWN: ReadonlySet<string> = new Set(["REJECTED", "FAILED"]);

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** The record's status when the service answered ("OPEN", "PENDING"), exactly; "" when there was none. */
export const recordStatusOf = (e: Pick<JournalEntry, "record">): string =>
  text((e.record as { status?: unknown } | null)?.status);

type Judged = Pick<ActivityEntry, "kind" | "status" | "record" | "record_status_now">;

/** The entry's result: "rejected" when its record was turned down, as answered or as the service has it now. */
export function resultOf(e: Judged): ActivityResult {
  if (e.status === "pending") return "waiting";
  if (e.status === "failed") return "failed";
  if (e.status === "declined") return "declined";
  const turnedDown =
    e.kind !== "cancel" && [recordStatusOf(e), e.record_status_now].some((s) => TURNED_DOWN.has(s ?? ""));
  return turnedDown ? "rejected" : "accepted";
}

/** The results each value of the API's status filter (a contract: pending|succeeded|failed) can hold. */
export const RESULTS_OF_STATUS = {
  pending: ["waiting"],
  succeeded: ["accepted", "rejected"],
  failed: ["failed"],
} as const satisfies Partial<Record<JournalStatus, readonly ActivityResult[]>>;

/** The Status filter's options, in the badges' words: "Accepted or rejected" for what the service answered. */
export const STATUS_FILTER_OPTIONS = Object.entries(RESULTS_OF_STATUS).map(([value, results]) => ({
  value,
  label: results.map((r, i) => (i === 0 ? RESULT_WORDS[r] : RESULT_WORDS[r].toLowerCase())).join(" or "),
}));

const DONE: Record<"order" | "transfer", Record<"accepted" | "rejected", string>> = {
  order: { accepted: "Order placed", rejected: "Order rejected by the service" },
  transfer: { accepted: "Transfer sent", rejected: "Transfer failed at the service" },
};

/**
 * What came of it, in a desk's words: placed or sent, or turned down by the service, with the
 * record's status then and now ("submitted at the time, rejected now"); a cancel acknowledged,
 * declined, or the problem's title. The exact status is the "Status when answered" column.
 */
export function outcomeOf(e: Judged & Pick<JournalEntry, "problem">): string {
  const result = resultOf(e);
  if (result === "waiting") return "Waiting for the service";
  if (result === "failed") return e.problem?.title ?? "Failed";
  if (result === "declined") return "Not sent: declined as a repeat";
  if (e.kind === "cancel") return "Cancel acknowledged";
  const then = recordStatusOf(e);
  const now = e.record_status_now && e.record_status_now !== then ? e.record_status_now : "";
  const times = [
    then && `${statusWords(then).toLowerCase()} at the time`,
    now && `${statusWords(now).toLowerCase()} now`,
  ];
  const when = times.filter(Boolean).join(", ");
  return when ? `${DONE[e.kind][result]} (${when})` : DONE[e.kind][result];
}

/**
 * True while an entry may still change soon: waiting for the service, or its record, as last
 * read, still on its way (an order SUBMITTED, a transfer PENDING) and so still able to be turned
 * down. A record the list could not read does not count: the page would poll for nothing.
 */
export function isSettling(e: Pick<ActivityEntry, "kind" | "status" | "record_status_now">): boolean {
  if (e.status === "pending") return true;
  const now = e.record_status_now;
  if (!now || e.kind === "cancel") return false;
  return e.kind === "order"
    ? now === "SUBMITTED" || now === "PENDING_SUBMISSION"
    : !(FINAL_TRANSFER_STATUSES as readonly string[]).includes(now);
}

/** An answered status the service may still change: worth asking it again. */
export const mayStillChange = (kind: JournalEntry["kind"], status: string): boolean =>
  kind === "order"
    ? !(FINAL_ORDER_STATUSES as readonly string[]).includes(status)
    : kind === "transfer" && !(FINAL_TRANSFER_STATUSES as readonly string[]).includes(status);
