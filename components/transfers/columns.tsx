"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { AssetAmount } from "@/components/ui/asset-amount";
import { HeldIdentity, HeldStatus } from "@/components/ui/held-status";
import { RowIdentity } from "@/components/ui/row-details";
import { StatusBadge } from "@/components/ui/status-badge";
import { SubmitterCell } from "@/components/ui/submitter-cell";
import { formatAsset } from "@/lib/shared/format";
import { heldRowKey, isHeldRow, type HeldTransfer } from "@/lib/shared/held-requests";
import { transferKind, type TransferGroup } from "@/lib/shared/transfer-rows";
import type { JournalEntry } from "@/lib/shared/journal-entry";
import type { Transfer } from "@/lib/spec/transfer";

/**
 * The transfers table's columns: the transfer, between whom and who asked, its amount and
 * status. Each leg's ids and direction are in the rows under it; the service's exact type
 * codes and group id behind "Show technical columns". A transfer the desk's four eyes hold is a
 * row too, on top: between whom, its amount, "Awaiting approval", who asked, its expiry and its
 * approval; it has no legs yet.
 */

/** A row of the transfers table: a transfer's legs, or a held transfer not sent yet. */
export type TransferRow = TransferGroup | HeldTransfer;

export const transferRowKey = (r: TransferRow): string => (isHeldRow<HeldTransfer>(r) ? heldRowKey(r) : r.key);

export interface TransferColumnsContext {
  nickname: (profileId: string) => string;
  isOpen: (group: TransferGroup) => boolean;
  toggle: (group: TransferGroup) => void;
  /** Who initiated each transfer, from the journal, by its DEBIT leg's ref_id. */
  initiator: (group: TransferGroup) => {
    entry: Pick<JournalEntry, "user_email" | "user_role"> | undefined;
    loading: boolean;
  };
}

const SORT_HINT = "Choose an asset to sort by amount: amounts of different assets do not compare";
export const shortId = (id: string) => id.replace(/^(group|transfer):/, "").slice(0, 8);
export const legRowId = (g: TransferGroup, leg: Transfer) => `leg-${g.key.replace(/[^A-Za-z0-9_-]/g, "-")}-${leg.id}`;

/** A leg's profile; the far side of a deposit or withdrawal is outside the service. */
const partyName = (g: TransferGroup, leg: Transfer | undefined, nickname: (id: string) => string) =>
  leg ? nickname(leg.profile_id) : g.groupId ? "" : "External";

export function transferColumns({ nickname, isOpen, toggle, initiator }: TransferColumnsContext) {
  const columns: ColumnDef<TransferRow, unknown>[] = [
    {
      id: "transfer",
      header: "Transfer",
      meta: { sticky: "left", label: "", sortHint: "Newest first, as the service lists them" },
      cell: ({ row: { original: g } }) => {
        if (isHeldRow<HeldTransfer>(g))
          return (
            <HeldIdentity held={g}>
              <span className="text-ink-muted">Internal transfer · not sent</span>
            </HeldIdentity>
          );
        const legs = g.legs.length === 1 ? "record" : `${g.legs.length} legs`;
        const label = `${isOpen(g) ? "Hide" : "Show"} the ${legs} of transfer ${shortId(g.groupId ?? g.key)}`;
        const controls = g.legs.map((l) => legRowId(g, l)).join(" ");
        return (
          <RowIdentity at={g.createdAt} expand={{ open: isOpen(g), controls, label, onClick: () => toggle(g) }}>
            <span className="text-ink-muted">
              {transferKind(g)} {/* Code, as ShortId writes ids: not a number even when all digits. */}
              <code className="font-mono" title={g.groupId ?? g.legs[0]?.id}>
                {shortId(g.groupId ?? g.key)}
              </code>
            </span>
          </RowIdentity>
        );
      },
    },
    {
      id: "between",
      header: "From → To",
      cell: ({ row: { original: g } }) => {
        if (isHeldRow<HeldTransfer>(g))
          return (
            <div className="leading-tight">
              {nickname(g.request.from_profile_id)} → {nickname(g.request.to_profile_id)}
              <span className="block text-xs text-ink-muted">waiting for four eyes</span>
            </div>
          );
        const by = initiator(g);
        return (
          <div className="leading-tight">
            {partyName(g, g.debit, nickname) || "—"} → {partyName(g, g.credit, nickname) || "—"}
            {/* Always a line, so a row keeps its height when the journal answers. Records made
                outside the dashboard (deposits) have no one to name. */}
            <span className="block text-xs text-ink-muted">
              {by.entry || by.loading ? (
                <>
                  by <SubmitterCell entry={by.entry} loading={by.loading} />
                </>
              ) : (
                "made outside the dashboard"
              )}
            </span>
          </div>
        );
      },
    },
    {
      id: "amount",
      header: "Amount",
      enableSorting: true,
      meta: { align: "right", sortHint: SORT_HINT },
      cell: ({ row: { original: r } }) => {
        const { amount, asset } = isHeldRow<HeldTransfer>(r) ? r.request : r;
        return <AssetAmount text={formatAsset(amount, asset)} asset={asset} />;
      },
    },
    {
      id: "status",
      header: "Status",
      cell: ({ row: { original: r } }) =>
        isHeldRow<HeldTransfer>(r) ? <HeldStatus held={r} /> : <StatusBadge status={r.status} />,
    },
  ];
  return columns;
}

/** The service's exact values: each leg's type code, and the group id whole. */
export const TRANSFER_TECHNICAL_COLUMNS: ColumnDef<TransferRow, unknown>[] = [
  {
    id: "service_type",
    header: "Type code",
    cell: ({ row: { original: r } }) => (
      <span className="font-mono text-xs">
        {isHeldRow<HeldTransfer>(r) ? "—" : [...new Set(r.legs.map((l) => l.type))].join(" / ")}
      </span>
    ),
  },
  {
    id: "group_id",
    header: "Group ID",
    cell: ({ row: { original: r } }) => (
      <span className="font-mono text-xs">{(!isHeldRow(r) && r.groupId) || "—"}</span>
    ),
  },
];
