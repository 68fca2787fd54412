import { batchRefusalWords, batchRequestOf, internalTransfers } from "@/lib/shared/batch-approval-words";
import {
  parentHeldWords,
  parentRefusalWords,
  scheduleWords,
  parentRequestOf,
} from "@/lib/shared/parent-approval-words";
import { totalsInWords } from "@/lib/shared/describe-batch";
import { amount, priceIn } from "@/lib/shared/describe-order";
import { moved, type TransferNames } from "@/lib/shared/describe-transfer";
import type { NoticeWords } from "@/lib/client/notice-log";
import type { Approval } from "@/lib/shared/approval";
import { amountIfSet } from "@/lib/spec/decimal";
import { marketAssets, marketLabel } from "@/lib/spec/markets";
import type { Transfer } from "@/lib/spec/transfer";

/**
 * A notice names its request, so that two alike can be told apart: the kind, the amount, the
 * profiles by nickname, and the ref_id. "Your transfer of 120.00 USD from Treasury to Settlement
 * was rejected by approver@example.com: Duplicate of …", with "ref_id t-…" in the detail.
 */

/** What an order asks, as its request or its record says it. */
export interface OrderAsk {
  side: string;
  market: string;
  base_amount?: string | null;
  quote_amount?: string | null;
}

/** "buy 0.5 BTC on BTC/USD from Trading"; a market buy by its quote, "buy BTC for 100.00 USD on …". */
export function orderWords(o: OrderAsk, profile: string): string {
  const { base_asset: base, quote_asset: quote } = marketAssets(o.market) ?? { base_asset: "", quote_asset: "" };
  const side = o.side === "SELL" ? "sell" : "buy";
  const baseAmount = amountIfSet(o.base_amount);
  const what = baseAmount
    ? `${side} ${amount(baseAmount)} ${base}`
    : `${side} ${base} for ${priceIn(quote)(o.quote_amount ?? undefined)}`;
  return `${what} on ${marketLabel(o.market)} from ${profile}`;
}

/** The parts of a detail that are there, in one line. */
export const detailOf = (...parts: (string | null | undefined)[]): string | undefined =>
  parts.filter(Boolean).join(" · ") || undefined;

/** "ref_id t-…": the request's own id, which tells two alike apart. */
export const refWords = (ref: unknown) => (typeof ref === "string" && ref ? `ref_id ${ref}` : undefined);

/** One notice per order's end, whoever tells it (the table that cancelled it, the card that follows it). */
export const orderEndKey = (orderId: string): string => `order-end:${orderId}`;

/**
 * The held request in words: "transfer of 120.00 USD from Treasury to Settlement", "order to buy
 * 2 BTC on …", "batch of 3 internal transfers (18,000.00 USD)", "TWAP order to buy 0.2 BTC over 1
 * minute in 6 slices, never above 61,000.00 USD, from Trading".
 */
function heldWords(a: Approval, nickname: (id: string) => string): string {
  const r = a.request;
  if (a.kind === "policy") return "policy change";
  if (a.kind === "batch") {
    const b = batchRequestOf(a);
    return `batch of ${internalTransfers(b.rows)} (${totalsInWords(b.totals)})`;
  }
  if (a.kind === "parent_order") return parentHeldWords(a, nickname);
  if (a.kind === "order") return `order to ${orderWords(r as unknown as OrderAsk, nickname(a.profile_id))}`;
  return `transfer of ${moved(String(r.amount), String(r.asset), {
    from: nickname(String(r.from_profile_id)),
    to: nickname(String(r.to_profile_id)),
  })}`;
}

/** The notice of a decision on one's own request; null while it waits (or when it was withdrawn). */
export function approvalNotice(a: Approval, nickname: (id: string) => string): NoticeWords | null {
  const your = `Your ${heldWords(a, nickname)}`;
  const ref = refWords(a.request.ref_id);
  switch (a.status) {
    case "APPROVED":
      if (a.kind === "batch") return approvedBatchNotice(a, your, ref, nickname);
      if (a.kind === "parent_order") return approvedParentNotice(a, your, ref, nickname);
      return approvedNotice(a, your, ref);
    case "REJECTED":
      return { title: `${your} was rejected by ${a.decided_by}: ${a.reason}`, detail: ref, tone: "error" };
    case "EXPIRED":
      return { title: `${your} expired unapproved`, detail: ref, tone: "warning" };
    default:
      return null;
  }
}

function approvedNotice(a: Approval, your: string, ref: string | undefined): NoticeWords {
  const failed = a.outcome !== null && a.outcome.status >= 300;
  const problem = (a.outcome?.body as { detail?: string } | null | undefined)?.detail;
  if (a.kind === "policy") {
    return failed
      ? { title: `${your} was approved, but not applied`, detail: problem, tone: "error" }
      : { title: `${your} was approved and applied`, detail: `Approved by ${a.decided_by}.`, tone: "success" };
  }
  if (failed && a.outcome?.sent === false) {
    return {
      title: `${your} was approved, but refused when checked again at send`,
      detail: detailOf(problem, ref),
      tone: "error",
    };
  }
  return failed
    ? { title: `${your} was approved, but the service refused it`, detail: detailOf(problem, ref), tone: "error" }
    : { title: `${your} was approved and sent`, detail: detailOf(`Approved by ${a.decided_by}`, ref), tone: "success" };
}

/** An approved batch: its sending started (followed on the Batches page), or refused whole at send. */
function approvedBatchNotice(
  a: Approval,
  your: string,
  ref: string | undefined,
  nickname: (id: string) => string,
): NoticeWords {
  if (a.outcome === null || a.outcome.status < 300) {
    return {
      title: `${your} was approved: sending started`,
      detail: detailOf(`Approved by ${a.decided_by}`, ref),
      tone: "success",
    };
  }
  return {
    title: `${your} was approved, but refused when checked again at send: none of it was sent`,
    detail: detailOf(batchRefusalWords(a.outcome.body, nickname), ref),
    tone: "error",
  };
}

/**
 * An approved parent order: it started working (its children go one slice at a time, followed on
 * its page), or it was refused when weighed again at send, and then no child order was sent.
 */
function approvedParentNotice(
  a: Approval,
  your: string,
  ref: string | undefined,
  nickname: (id: string) => string,
): NoticeWords {
  if (a.outcome === null || a.outcome.status < 300) {
    return {
      title: `${your} was approved: it started working`,
      detail: detailOf(`Approved by ${a.decided_by}`, scheduleWords(parentRequestOf(a)), ref),
      tone: "success",
    };
  }
  return {
    title: `${your} was approved, but refused when checked again at send: no child order was sent`,
    detail: detailOf(parentRefusalWords(a.outcome.body, nickname), ref),
    tone: "error",
  };
}

/** The end of the order an approved request of one's own placed: filled, or ended otherwise. */
export function approvedOrderNotice(
  a: Approval,
  order: { id: string; status: string },
  nickname: (id: string) => string,
): NoticeWords {
  const filled = order.status === "FILLED";
  return {
    key: orderEndKey(order.id),
    title: `Your approved ${heldWords(a, nickname)} ${filled ? "filled" : `ended ${order.status}`}`,
    detail: detailOf(`Order ${order.id.slice(0, 8)} is ${order.status}`, refWords(a.request.ref_id)),
    tone: filled ? "success" : "warning",
  };
}

/** A transfer's end: "Transfer completed: 100.00 EUR from Treasury to Settlement", its ref_id below. */
export function transferEndNotice(t: Transfer, names: TransferNames): NoticeWords {
  const completed = t.status === "COMPLETED";
  return {
    title: `Transfer ${completed ? "completed" : "failed"}: ${moved(t.amount, t.asset, names)}`,
    detail: detailOf(`Transfer ${t.id.slice(0, 8)}`, refWords(t.ref_id)),
    tone: completed ? "success" : "error",
  };
}
