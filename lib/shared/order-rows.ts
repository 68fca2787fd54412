import { amountIfSet, compareDecimal, DECIMAL_PATTERN } from "@/lib/spec/decimal";
import { FINAL_ORDER_STATUSES, type OrderStatus } from "@/lib/spec/enums";
import { marketAssets } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import type { JournalEntry } from "@/lib/shared/journal-entry";
import { AWAITING_APPROVAL, type HeldOrder } from "@/lib/shared/held-requests";
import type { OrderQuality } from "@/lib/shared/order-quality";

/** Orders a trader may still cancel. */
export const isCancellable = (o: Pick<Order, "status">): boolean => o.status === "SUBMITTED" || o.status === "OPEN";

/**
 * The status a badge shows: the service's, except that a GTT order the service cancelled at or
 * after its expiration_date shows EXPIRED, told apart from a cancel someone asked for.
 */
export function orderBadgeStatus(
  o: Pick<Order, "status" | "time_in_force" | "expiration_date" | "modified_at">,
): OrderStatus | "EXPIRED" {
  if (o.status !== "CANCELLED" || o.time_in_force !== "GTT" || !o.expiration_date) return o.status;
  const expiry = instantOf(o.expiration_date);
  const cancelled = instantOf(o.modified_at);
  return expiry !== undefined && cancelled !== undefined && cancelled >= expiry ? "EXPIRED" : o.status;
}

/** Unix ms of an ISO time or of 13 digits of milliseconds (the form a GTT expiry is sent in). */
function instantOf(time: string): number | undefined {
  const ms = /^\d{13}$/.test(time) ? Number(time) : Date.parse(time);
  return Number.isNaN(ms) ? undefined : ms;
}

/** True while something may still happen to one of the orders (the table keeps polling). */
export const anyOrderLive = (orders: readonly Pick<Order, "status">[]): boolean =>
  orders.some((o) => !FINAL_ORDER_STATUSES.includes(o.status));

/**
 * The amount an order was placed for, in its own asset: the base amount, or the quote amount of
 * a market buy, whose base_amount the service leaves unset ("" or, in List Orders, "0").
 */
export function orderAmount(o: { market: string; base_amount?: string | null; quote_amount?: string | null }): {
  value: string;
  asset: string;
} {
  const m = marketAssets(o.market);
  const base = amountIfSet(o.base_amount);
  if (base) return { value: base, asset: m?.base_asset ?? "" };
  return { value: amountIfSet(o.quote_amount) ?? "", asset: m?.quote_asset ?? "" };
}

/** Whether any of `amount` has filled ("0.00000000" is nothing). */
export const hasFill = (amount: string): boolean => DECIMAL_PATTERN.test(amount) && compareDecimal(amount, "0") > 0;

/** The execution quality an order's CSV row carries (lib/shared/order-quality.ts). */
export const QUALITY_CSV_COLUMNS = ["arrival_mid", "fill_vwap", "slippage_bps", "market_vwap"] as const;
export type QualityColumns = Pick<OrderQuality, (typeof QUALITY_CSV_COLUMNS)[number]>;

export const ORDER_CSV_HEADER = [
  "id",
  "created_at",
  "modified_at",
  "profile_id",
  "profile",
  "market",
  "side",
  "type",
  "status",
  "time_in_force",
  "base_amount",
  "quote_amount",
  "price",
  "stop_price",
  "amount_filled",
  "volume_weighted_average_price",
  "expiration_date",
  "is_triggered",
  "ref_id",
  "recipient_profile_id",
  "identity_id",
  "identity_account_id",
  "metadata",
  "submitted_by",
  "submitted_by_role",
  // A held order's (status AWAITING_APPROVAL); blank on the service's records.
  "approval_id",
  "requested_by",
  "approval_expires_at",
  // Its execution quality (GET /api/orders/{order_id}/quality); blank where not known.
  ...QUALITY_CSV_COLUMNS,
];

/**
 * One CSV row per order; amounts exactly as the service sent them, times in ISO UTC; its execution
 * quality from `qualityOf` (blank without it, and where a figure is not known).
 */
export function orderCsvRows(
  orders: readonly Order[],
  nickname: (profileId: string) => string,
  submitters: ReadonlyMap<string, Pick<JournalEntry, "user_email" | "user_role">> | undefined,
  qualityOf?: (o: Order) => QualityColumns,
): string[][] {
  return orders.map((o) => {
    const by = o.ref_id ? submitters?.get(o.ref_id) : undefined;
    const quality = qualityOf?.(o);
    return [
      o.id,
      isoUtc(o.created_at),
      isoUtc(o.modified_at),
      o.profile_id,
      nickname(o.profile_id),
      o.market,
      o.side,
      o.type,
      o.status,
      o.time_in_force,
      o.base_amount,
      o.quote_amount,
      o.price,
      o.stop_price ?? "",
      o.amount_filled,
      o.volume_weighted_average_price,
      isoUtc(o.expiration_date),
      o.is_triggered === undefined ? "" : String(o.is_triggered),
      o.ref_id ?? "",
      o.recipient_profile_id ?? "",
      o.identity_id ?? "",
      o.identity_account_id ?? "",
      metadataText(o.metadata),
      by?.user_email ?? "",
      by?.user_role ?? "",
      "",
      "",
      "",
      ...QUALITY_CSV_COLUMNS.map((c) => quality?.[c] ?? ""),
    ];
  });
}

/**
 * A held order as a CSV row in the same columns: the request as asked, no id nor fill (the service
 * has no record yet), created_at the time it was asked, and its approval's id, requester and expiry.
 */
export function heldOrderCsvRow(h: HeldOrder, nickname: (profileId: string) => string): string[] {
  const o = h.request;
  return [
    "",
    isoUtc(h.requested_at),
    "",
    h.profile_id,
    nickname(h.profile_id),
    o.market,
    o.side,
    o.type,
    AWAITING_APPROVAL,
    o.time_in_force ?? "",
    o.base_amount ?? "",
    o.quote_amount ?? "",
    o.price ?? "",
    o.stop_price ?? "",
    "",
    "",
    isoUtc(o.expiration_date),
    "",
    h.ref_id,
    o.recipient_profile_id ?? "",
    o.identity_id ?? "",
    o.identity_account_id ?? "",
    metadataText(o.metadata),
    "",
    "",
    h.approval_id,
    h.requested_by,
    isoUtc(h.expires_at),
    ...QUALITY_CSV_COLUMNS.map(() => ""),
  ];
}

/** Metadata as compact JSON ("" when there is none), one cell that a script can parse back. */
export const metadataText = (metadata: Record<string, unknown> | undefined): string =>
  metadata && Object.keys(metadata).length > 0 ? JSON.stringify(metadata) : "";

/**
 * A time as ISO 8601 in UTC ("2026-11-23T17:04:28.000Z"), from an ISO time or 13 digits of
 * milliseconds (a held GTT order's expiry, as it is sent); "" stays "", an unreadable time stays as sent.
 */
export function isoUtc(time: string | undefined): string {
  if (!time) return "";
  const ms = instantOf(time);
  return ms === undefined ? time : new Date(ms).toISOString();
}
