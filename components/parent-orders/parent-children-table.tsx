"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { AssetAmount } from "@/components/ui/asset-amount";
import { DataTable } from "@/components/ui/data-table";
import { ShortId } from "@/components/ui/short-id";
import { Time } from "@/lib/client/time-zone";
import { formatAmount } from "@/lib/shared/format";
import { hasFill } from "@/lib/shared/order-rows";
import type { ParentOrder, ParentOrderChild } from "@/lib/shared/parent-order";
import { assetsOf, tickPrice } from "../orders/describe-parent-order";
import { ChildStatus } from "../orders/parent-child-rows";

const right = { meta: { align: "right" } } as const;

function childColumns(market: string, base: string): ColumnDef<ParentOrderChild, unknown>[] {
  return [
    {
      id: "n",
      header: "Slice",
      meta: { align: "right", sticky: "left" },
      cell: ({ row: { original: c } }) => <span className="font-semibold">{c.n.toLocaleString("en-US")}</span>,
    },
    {
      id: "ref_id",
      header: "Ref ID",
      cell: ({ row: { original: c } }) => (
        <span className="block max-w-80 min-w-40 break-all whitespace-normal">
          <code className="font-mono text-xs">{c.ref_id}</code>
          {c.order_id && (
            <span className="block text-xs text-ink-muted">
              order <ShortId id={c.order_id} />
            </span>
          )}
        </span>
      ),
    },
    { id: "scheduled", header: "Scheduled", cell: ({ row }) => <Time iso={row.original.scheduled_at} /> },
    { id: "sent", header: "Sent", cell: ({ row }) => <Time iso={row.original.sent_at ?? undefined} /> },
    {
      id: "amount",
      header: "Amount",
      ...right,
      cell: ({ row: { original: c } }) =>
        c.base_amount ? <AssetAmount text={formatAmount(c.base_amount)} asset={base} /> : formatAmount(undefined),
    },
    {
      id: "price",
      header: "Price",
      ...right,
      cell: ({ row }) => formatAmount(row.original.price ?? undefined, { min: 2 }),
    },
    { id: "status", header: "Status", cell: ({ row }) => <ChildStatus status={row.original.status} /> },
    {
      id: "filled",
      header: "Filled",
      ...right,
      cell: ({ row: { original: c } }) =>
        c.sent_at ? <AssetAmount text={formatAmount(c.amount_filled)} asset={base} /> : formatAmount(undefined),
    },
    {
      id: "average",
      header: "Average",
      ...right,
      cell: ({ row: { original: c } }) =>
        hasFill(c.amount_filled) && c.average_price ? tickPrice(c.average_price, market) : formatAmount(undefined),
    },
  ];
}

/**
 * A parent's slices, one row each, in the order they are due: when each was scheduled and sent,
 * what it asked at what price, its status (the service's once sent; SCHEDULED, MERGED or SKIPPED
 * before), what it filled and at what average. On a phone each is a card.
 */
export function ParentChildrenTable({ parent }: { parent: ParentOrder }) {
  const { base_asset: base } = assetsOf(parent.market);
  const columns = useMemo(() => childColumns(parent.market, base), [parent.market, base]);
  return (
    <DataTable
      caption={`Slices of parent order ${parent.id.slice(0, 8)}`}
      columns={columns}
      data={parent.children}
      loading={false}
      empty={
        <span className="text-ink-muted">
          {parent.status === "AWAITING_APPROVAL"
            ? "Its slices are scheduled once it is approved."
            : "No slice was scheduled: the parent order never started."}
        </span>
      }
      rowKey={(c) => String(c.n)}
      placeholderRows={Math.min(parent.slices, 6)}
    />
  );
}
