"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { RowIdentity } from "@/components/ui/row-details";
import { SideBadge, StatusBadge } from "@/components/ui/status-badge";
import { formatAmount, formatAsset } from "@/lib/shared/format";
import { hasFill, isCancellable, orderAmount, orderBadgeStatus } from "@/lib/shared/order-rows";
import { amountIfSet } from "@/lib/spec/decimal";
import { ORDER_TYPE_WORDS } from "@/lib/spec/enums";
import { isMarket, marketAssets, marketLabel } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import type { Problem } from "@/lib/spec/problem";
import { CancelOrder, CancellingButton } from "./cancel-order";

/**
 * The orders table's columns: what a desk reads at a glance (the order, its amount, price,
 * fill and status) and Cancel. Ids, who submitted it and the rest are in its details row;
 * the service's exact codes behind "Show technical columns".
 */

export interface OrderColumnsContext {
  nickname: (profileId: string) => string;
  isOpen: (order: Order) => boolean;
  toggle: (order: Order) => void;
  /** Null: the person may not cancel, and there is no action column. */
  cancel: null | {
    cancelling: ReadonlySet<string>;
    refused: (order: Order, problem: Problem | null) => void;
    requested: (order: Order) => void;
  };
}

const SORT_HINT = "Choose a market to sort: amounts and prices of different markets are in different assets";
const sortable = { enableSorting: true, meta: { align: "right", sortHint: SORT_HINT } } as const;
export const orderDetailsRowId = (o: Order) => `order-details-${o.id}`;

export function orderColumns({ nickname, isOpen, toggle, cancel }: OrderColumnsContext): ColumnDef<Order, unknown>[] {
  const columns: ColumnDef<Order, unknown>[] = [
    {
      id: "order",
      header: "Order",
      meta: { sticky: "left", label: "", sortHint: "Newest first" },
      cell: ({ row: { original: o } }) => {
        const open = isOpen(o);
        const what = `the details of order ${o.id.slice(0, 8)}`;
        const expand = { open, controls: orderDetailsRowId(o), label: `${open ? "Hide" : "Show"} ${what}` };
        return (
          <RowIdentity at={o.created_at} expand={{ ...expand, onClick: () => toggle(o) }}>
            {nickname(o.profile_id)} · {marketLabel(o.market)} · <SideBadge side={o.side} />
            <span className="block text-ink-muted">
              {ORDER_TYPE_WORDS[o.type] ?? o.type} {o.time_in_force} ·{" "}
              <span className="font-mono" title={o.id}>
                {o.id.slice(0, 8)}
              </span>
            </span>
          </RowIdentity>
        );
      },
    },
    { id: "amount", header: "Amount", ...sortable, cell: ({ row }) => <AmountCell order={row.original} /> },
    { id: "price", header: "Price", ...sortable, cell: ({ row }) => <PriceCell order={row.original} /> },
    { id: "filled", header: "Filled", ...sortable, cell: ({ row }) => <FilledCell order={row.original} /> },
    {
      id: "status",
      header: "Status",
      cell: ({ row }) => (
        <span className="inline-flex flex-col items-start gap-0.5">
          <StatusBadge status={orderBadgeStatus(row.original)} />
          {row.original.is_triggered && <span className="text-xs text-ink-muted">triggered</span>}
        </span>
      ),
    },
  ];
  if (!cancel) return columns;
  columns.push({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    // The confirm step's width, reserved: opening it never widens the table.
    meta: { sticky: "right", label: "", width: "sm:w-32 sm:min-w-32" },
    cell: ({ row: { original: o } }) => {
      // A market the spec does not name is shown read-only: the dashboard does not trade it.
      if (!isCancellable(o) || !isMarket(o.market)) return null;
      if (cancel.cancelling.has(o.id)) return <CancellingButton />;
      return (
        <CancelOrder
          order={o}
          onProblem={(problem) => cancel.refused(o, problem)}
          onRequested={() => cancel.requested(o)}
        />
      );
    },
  });
  return columns;
}

/** The service's exact values, for whoever compares the screen with the service's answers. */
export const ORDER_TECHNICAL_COLUMNS: ColumnDef<Order, unknown>[] = [
  { id: "service_type", header: "Type code", cell: ({ row }) => <Code>{row.original.type}</Code> },
  { id: "service_status", header: "Status code", cell: ({ row }) => <Code>{row.original.status}</Code> },
  { id: "order_id", header: "Order ID", cell: ({ row }) => <Code>{row.original.id}</Code> },
];

export const Code = ({ children }: { children: string | undefined }) => (
  <span className="font-mono text-xs">{children || "—"}</span>
);

/** A market buy placed in quote shows its quote amount. */
function AmountCell({ order }: { order: Order }) {
  const { value, asset } = orderAmount(order);
  return (
    <>
      {formatAsset(value, asset)} <span className="text-xs text-ink-muted">{asset}</span>
    </>
  );
}

/** A market order's price, unset ("" or "0"), reads "market"; a stop price beneath. */
function PriceCell({ order }: { order: Order }) {
  const [price, stop] = [amountIfSet(order.price), amountIfSet(order.stop_price)];
  return (
    <>
      {price ? formatAmount(price, { min: 2 }) : <span className="text-ink-muted">market</span>}
      {stop && <span className="block text-xs text-ink-muted">stop {formatAmount(stop, { min: 2 })}</span>}
    </>
  );
}

/** amount_filled is in the base asset, even for a market buy placed in quote; its average price beneath. */
function FilledCell({ order }: { order: Order }) {
  const base = marketAssets(order.market)?.base_asset;
  return (
    <>
      {formatAmount(order.amount_filled)} <span className="text-xs text-ink-muted">{base}</span>
      {hasFill(order.amount_filled) && (
        <span className="block text-xs text-ink-muted">
          avg {formatAmount(order.volume_weighted_average_price, { min: 2 })}
        </span>
      )}
    </>
  );
}
