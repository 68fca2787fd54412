import { FINAL_TRANSFER_STATUSES, type TransferStatus } from "@/lib/spec/enums";
import type { Transfer } from "@/lib/spec/transfer";
import { isoUtc, metadataText } from "./order-rows";
import type { JournalEntry } from "@/lib/shared/journal-entry";
import { transferTypeWords } from "@/lib/shared/status-words";
import { AWAITING_APPROVAL, type HeldLeg, type HeldTransfer } from "@/lib/shared/held-requests";

/** One row of the transfers table: the legs sharing a group_id, or a lone transfer (a deposit). */
export interface TransferGroup {
  /** Stable row key: the group_id, or the transfer id of a lone transfer. */
  key: string;
  groupId: string | undefined;
  /** Legs, DEBIT first. */
  legs: Transfer[];
  debit: Transfer | undefined;
  credit: Transfer | undefined;
  createdAt: string;
  asset: string;
  amount: string;
  status: TransferStatus;
}

const keyOf = (t: Transfer): string => (t.group_id ? `group:${t.group_id}` : `transfer:${t.id}`);

/**
 * Groups legs by group_id in the order the service listed them. `pageLegs` are the page's
 * items and decide which rows exist; `extraLegs` (fetched by group_ids) only complete them.
 */
export function groupTransfers(pageLegs: readonly Transfer[], extraLegs: readonly Transfer[] = []): TransferGroup[] {
  const byKey = new Map<string, Map<string, Transfer>>();
  for (const t of pageLegs) {
    const key = keyOf(t);
    if (!byKey.has(key)) byKey.set(key, new Map());
    byKey.get(key)!.set(t.id, t);
  }
  for (const t of extraLegs) byKey.get(keyOf(t))?.set(t.id, t);
  return [...byKey.entries()].map(([key, legsById]) => {
    const legs = [...legsById.values()].sort((a, b) =>
      a.direction === b.direction ? 0 : a.direction === "DEBIT" ? -1 : 1,
    );
    const debit = legs.find((l) => l.direction === "DEBIT");
    const credit = legs.find((l) => l.direction === "CREDIT");
    const main = debit ?? legs[0]!;
    return {
      key,
      groupId: main.group_id,
      legs,
      debit,
      credit,
      createdAt: main.created_at,
      asset: main.asset,
      amount: main.amount,
      status: combinedStatus(legs),
    };
  });
}

/** A transfer is COMPLETED only when every leg is; any FAILED leg fails it; otherwise PENDING. */
export function combinedStatus(legs: readonly Pick<Transfer, "status">[]): TransferStatus {
  if (legs.some((l) => l.status === "FAILED")) return "FAILED";
  if (legs.length > 0 && legs.every((l) => l.status === "COMPLETED")) return "COMPLETED";
  return "PENDING";
}

/** group_ids with a single leg on the page: the other leg is on another page or another profile. */
export function incompleteGroupIds(legs: readonly Transfer[]): string[] {
  const count = new Map<string, number>();
  for (const t of legs) if (t.group_id) count.set(t.group_id, (count.get(t.group_id) ?? 0) + 1);
  return [...count.entries()].filter(([, n]) => n < 2).map(([id]) => id);
}

export const anyTransferLive = (legs: readonly Pick<Transfer, "status">[]): boolean =>
  legs.some((l) => !FINAL_TRANSFER_STATUSES.includes(l.status));

/** What kind of movement a row is, in words: internal transfers by group, others by their type. */
export const transferKind = (g: Pick<TransferGroup, "groupId" | "legs">): string =>
  g.groupId && g.legs.every((l) => l.type.startsWith("INTERNAL_TRANSFER_"))
    ? "Internal transfer"
    : transferTypeWords(g.legs[0]?.type ?? "");

export const TRANSFER_CSV_HEADER = [
  "group_id",
  "id",
  "created_at",
  "updated_at",
  "direction",
  "type",
  "status",
  "profile_id",
  "profile",
  "asset",
  "amount",
  "fee",
  "total",
  "ref_id",
  "identity_id",
  "account_id",
  "metadata",
  "initiated_by",
  "initiated_by_role",
  // A held transfer's (status AWAITING_APPROVAL); blank on the service's legs.
  "approval_id",
  "requested_by",
  "approval_expires_at",
];

/**
 * One leg as a CSV row; amounts exactly as the service sent them, times in ISO UTC. `by` is
 * who initiated the transfer, known from its DEBIT leg's ref_id (the CREDIT leg has none).
 */
export function transferCsvRow(
  t: Transfer,
  nickname: (profileId: string) => string,
  by: Pick<JournalEntry, "user_email" | "user_role"> | undefined,
): string[] {
  return [
    t.group_id ?? "",
    t.id,
    isoUtc(t.created_at),
    isoUtc(t.updated_at),
    t.direction,
    t.type,
    t.status,
    t.profile_id,
    nickname(t.profile_id),
    t.asset,
    t.amount,
    t.fee,
    t.total,
    t.ref_id ?? "",
    t.identity_id ?? "",
    t.account_id ?? "",
    metadataText(t.metadata),
    by?.user_email ?? "",
    by?.user_role ?? "",
    "",
    "",
    "",
  ];
}

/**
 * A leg a held transfer would make (lib/shared/held-requests.ts, heldLegs) as a CSV row in the same
 * columns: no ids, fee nor total (the service has no record yet), created_at the time it was asked,
 * the ref_id on the DEBIT and each side's metadata as the service keeps them, and the approval's id,
 * requester and expiry.
 */
export function heldTransferCsvRow(h: HeldTransfer, leg: HeldLeg, nickname: (profileId: string) => string): string[] {
  const debit = leg.direction === "DEBIT";
  return [
    "",
    "",
    isoUtc(h.requested_at),
    "",
    leg.direction,
    leg.type,
    AWAITING_APPROVAL,
    leg.profile_id,
    nickname(leg.profile_id),
    leg.asset,
    leg.amount,
    "",
    "",
    debit ? h.ref_id : "",
    "",
    "",
    metadataText(debit ? h.request.metadata : h.request.recipient_metadata),
    "",
    "",
    h.approval_id,
    h.requested_by,
    isoUtc(h.expires_at),
  ];
}
