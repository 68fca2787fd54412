import type { Approval } from "@/lib/shared/approval";
import type { Batch, BatchApprovalRequest, BatchFunds } from "@/lib/shared/batch";
import { formatCount, formatMoney, formatUsd } from "@/lib/shared/format";
import { nameProfiles } from "@/lib/shared/named-profiles";
import { shortBy, totalsInWords } from "@/lib/shared/describe-batch";

/**
 * A held batch of internal transfers (an approval of kind "batch": one approval of the whole) in
 * the desk's words, for its card, its restatement at the button, its line in the list and its
 * notices: how many transfers, their totals per asset, who sends them, by nickname.
 */

type Nickname = (id: string) => string;

/** The batch an approval of kind "batch" holds: its totals, what each profile sends, its largest rows. */
export const batchRequestOf = (a: Approval): BatchApprovalRequest => a.request as unknown as BatchApprovalRequest;

/** "3 internal transfers", "1 internal transfer". */
export const internalTransfers = (n: number): string => `${formatCount(n)} internal transfer${n === 1 ? "" : "s"}`;

/** The sending profiles by nickname, each once, in the batch's order: "Treasury and Settlement". */
export function sendersWords(outgoing: readonly { profile_id: string }[], nickname: Nickname): string {
  const names = [...new Set(outgoing.map((o) => o.profile_id))].map(nickname);
  return names.length <= 1 ? (names[0] ?? "no profile") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Its worth in USD when that is not already said by its totals (any asset but USD): ", worth about
 * 32,500.00 USD"; "" when it is all USD, or when no market prices one of its assets.
 */
function worthWords(a: Approval, r: BatchApprovalRequest): string {
  if (a.value_usd === null || r.totals.every((t) => t.asset === "USD")) return "";
  return `, worth about ${formatUsd(a.value_usd)}`;
}

/** "Batch of 3 internal transfers": the card's title. */
export const batchTitle = (r: Pick<BatchApprovalRequest, "rows">): string => `Batch of ${internalTransfers(r.rows)}`;

/**
 * What an approver decides, restated at the button: "3 internal transfers totalling 18,000.00 USD
 * from Treasury (batch b-7)".
 */
export function batchTerms(a: Approval, nickname: Nickname): string {
  const r = batchRequestOf(a);
  const worth = worthWords(a, r);
  return `${internalTransfers(r.rows)} totalling ${totalsInWords(r.totals)}${worth}${worth && ","} from ${sendersWords(r.outgoing, nickname)} (batch ${r.ref_id})`;
}

/** The request in a sentence: "Send a batch of 3 internal transfers, 18,000.00 USD in all, from Treasury." */
export function describeBatchApproval(a: Approval, nickname: Nickname): string {
  const r = batchRequestOf(a);
  return `Send a batch of ${internalTransfers(r.rows)}, ${totalsInWords(r.totals)} in all${worthWords(a, r)}, from ${sendersWords(r.outgoing, nickname)}.`;
}

/**
 * One sending profile's part beside its funds now: "Treasury sends 18,000.00 USD; has
 * 25,000,000.00 USD available", and when it is short, by how much and what that means.
 */
export function batchFundsWords(f: BatchFunds, nickname: Nickname): { sends: string; has: string; short?: string } {
  const sends = `${nickname(f.profile_id)} sends ${formatMoney(f.needed, f.asset)}`;
  if (f.available === null) return { sends, has: "the service cannot say now what it has available" };
  const has = `has ${formatMoney(f.available, f.asset)} available`;
  const short = shortBy(f);
  return short === undefined
    ? { sends, has }
    : { sends, has, short: `${formatMoney(short, f.asset)} short: the batch will be refused at send` };
}

/**
 * Where the batch stands, said beside its approval: nothing goes before it is approved; once
 * approved and sending, its rows as the batch counts them now ("Sending: 1 of 3 sent",
 * "Completed: all 3 sent"); when it was not approved, or was refused at send, that none went.
 */
export function batchProgressWords(
  a: Approval,
  batch: Pick<Batch, "status" | "counts"> | undefined,
): string | undefined {
  const rows = batchRequestOf(a).rows;
  if (a.status === "PENDING") return "Nothing is sent before it is approved.";
  if (a.status !== "APPROVED" || (a.outcome !== null && a.outcome.status >= 300)) return "None of it was sent.";
  if (a.outcome === null) return "Starting to send…";
  if (!batch) return undefined;
  const { sent, failed, skipped } = batch.counts;
  const failures = failed > 0 ? `, ${formatCount(failed)} failed` : "";
  switch (batch.status) {
    case "SENDING":
      return `Sending: ${formatCount(sent)} of ${formatCount(rows)} sent${failures}.`;
    case "COMPLETED":
      return failed > 0
        ? `Completed: ${formatCount(sent)} of ${formatCount(rows)} sent${failures}.`
        : `Completed: all ${formatCount(rows)} sent.`;
    case "CANCELLED":
      return `Cancelled: ${formatCount(sent)} sent${failures}, ${formatCount(skipped)} not sent.`;
    case "AWAITING_APPROVAL":
      return "Starting to send…";
    default:
      return "None of it was sent.";
  }
}

/** Where the batch and its rows are followed: the Batches page, opened on it. */
export const batchHref = (batchId: string): string => `/batches?batch=${encodeURIComponent(batchId)}`;

/** The insufficient-funds problem's figures (the service's shape, and the batch's refusal at send). */
interface ShortFunds {
  profile_id: string;
  asset: string;
  available: string;
  needed: string;
}

/**
 * A refusal of the batch in the desk's words: short funds as "Operations reserve has 5,000.00 USD
 * available; the batch sends 12,000.00 USD from it", anything else as the problem's own detail,
 * profiles by nickname.
 */
export function batchRefusalWords(body: unknown, nickname: Nickname = (id) => id): string {
  const p = (body ?? {}) as { detail?: string; title?: string; status?: number; meta?: Partial<ShortFunds> };
  const m = p.meta;
  if (m?.profile_id && m.asset && m.available && m.needed && p.title === "Insufficient Funds") {
    return `${nickname(m.profile_id)} has ${formatMoney(m.available, m.asset)} available; the batch sends ${formatMoney(m.needed, m.asset)} from it`;
  }
  const said = p.detail ?? p.title ?? (p.status ? `the answer was ${p.status}` : "no reason was given");
  return nameProfiles(said, nickname);
}

/**
 * What came of approving a batch: its sending started (the rows go one by one after, followed on
 * the Batches page), or it was refused when weighed again at send, and then none of it was sent.
 */
export function batchApprovedWords(a: Approval, nickname?: Nickname): string {
  if (a.outcome === null) return "Approved; starting to send the batch…";
  if (a.outcome.status >= 300)
    return `Approved, not sent: checked again at send, the batch was refused: ${batchRefusalWords(a.outcome.body, nickname)}`;
  return `Approved; sending started: its ${internalTransfers(batchRequestOf(a).rows)} go one by one`;
}
