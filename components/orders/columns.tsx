"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { AssetAmount } from "@/components/ui/asset-amount";
import { HeldIdentity, HeldStatus } from "@/components/ui/held-status";
import { RowIdentity } from "@/components/ui/row-details";
import { SideBadge, StatusBadge } from "@/components/ui/status-badge";
import { formatAmount, formatAsset } from "@/lib/shared/format";
import { AWAITING_APPROVAL, heldRowKey, isHeldRow, type HeldOrder } from "@/lib/shared/held-requests";
import { hasFill, isCancellable, orderAmount, orderBadgeStatus } from "@/lib/shared/order-rows";
import { amountIfSet } from "@/lib/spec/decimal";
import { ORDER_TYPE_WORDS } from "@/lib/spec/enums";
import { isMarket, marketAssets, marketLabel } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import type { Problem } from "@/lib/spec/problem";
import { CancelOrder, CancellingButton } from "./cancel-order";
import { ShortId } from "../ui/short-id";

/**
 * The orders table's columns: what a desk reads at a glance (the order, its amount, price,
 * fill and status) and Cancel. Ids, who submitted it and the rest are in its details row;
 * the service's exact codes behind "Show technical columns". An order the desk's four eyes hold
 * is a row too, on top: its request, "Awaiting approval", who asked, its expiry and its approval.
 */

/** A row of the orders table: the service's order, or a held one not sent yet. */
export type OrderRow = Order | HeldOrder;

export const orderRowKey = (r: OrderRow): string => (isHeldRow<HeldOrder>(r) ? heldRowKey(r) : r.id);

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

export function orderColumns({
  nickname,
  isOpen,
  toggle,
  cancel,
}: OrderColumnsContext): ColumnDef<OrderRow, unknown>[] {
  const columns: ColumnDef<OrderRow, unknown>[] = [
    {
      id: "order",
      header: "Order",
      meta: { sticky: "left", label: "", sortHint: "Newest first" },
      cell: ({ row: { original: o } }) => {
        if (isHeldRow<HeldOrder>(o)) return <HeldOrderIdentity held={o} nickname={nickname} />;
        const open = isOpen(o);
        const what = `the details of order ${o.id.slice(0, 8)}`;
        const expand = { open, controls: orderDetailsRowId(o), label: `${open ? "Hide" : "Show"} ${what}` };
        return (
          <RowIdentity at={o.created_at} expand={{ ...expand, onClick: () => toggle(o) }}>
            {nickname(o.profile_id)} · {marketLabel(o.market)} · <SideBadge side={o.side} />
            <span className="block text-ink-muted">
              {ORDER_TYPE_WORDS[o.type] ?? o.type} {o.time_in_force} · <ShortId id={o.id} />
            </span>
          </RowIdentity>
        );
      },
    },
    { id: "amount", header: "Amount", ...sortable, cell: ({ row }) => <AmountCell order={asked(row.original)} /> },
    { id: "price", header: "Price", ...sortable, cell: ({ row }) => <PriceCell order={asked(row.original)} /> },
    {
      id: "filled",
      header: "Filled",
      ...sortable,
      cell: ({ row: { original: o } }) =>
        isHeldRow<HeldOrder>(o) ? <Code>{undefined}</Code> : <FilledCell order={o} />,
    },
    {
      id: "status",
      header: "Status",
      cell: ({ row: { original: o } }) =>
        isHeldRow<HeldOrder>(o) ? (
          <HeldStatus held={o} />
        ) : (
          <span className="inline-flex flex-col items-start gap-0.5">
            <StatusBadge status={orderBadgeStatus(o)} />
            {o.is_triggered && <span className="text-xs text-ink-muted">triggered</span>}
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
      // A held order is not the service's yet: its requester withdraws it on the approvals page.
      if (isHeldRow<HeldOrder>(o)) return null;
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
export const ORDER_TECHNICAL_COLUMNS: ColumnDef<OrderRow, unknown>[] = [
  { id: "service_type", header: "Type code", cell: ({ row }) => <Code>{asked(row.original).type}</Code> },
  {
    id: "service_status",
    header: "Status code",
    cell: ({ row: { original: o } }) => <Code>{isHeldRow(o) ? AWAITING_APPROVAL : o.status}</Code>,
  },
  {
    id: "order_id",
    header: "Order ID",
    cell: ({ row: { original: o } }) => <Code>{isHeldRow(o) ? undefined : o.id}</Code>,
  },
];

/** What the row asks of the market: the service's order, or a held order's request. */
const asked = (o: OrderRow) => (isHeldRow<HeldOrder>(o) ? o.request : o);

/** A held order's identity: when it was asked, and what. */
function HeldOrderIdentity({ held, nickname }: { held: HeldOrder; nickname: (profileId: string) => string }) {
  const o = held.request;
  return (
    <HeldIdentity held={held}>
      {nickname(held.profile_id)} · {marketLabel(o.market)} · <SideBadge side={o.side} />
      <span className="block text-ink-muted">
        {ORDER_TYPE_WORDS[o.type] ?? o.type} {o.time_in_force ?? ""} · not sent
      </span>
    </HeldIdentity>
  );
}

export const Code = ({ children }: { children: string | undefined }) => (
  <span className="font-mono text-xs">{children || "—"}</span>
);

/** An order's quantities and prices, as the service lists them or as a held request asks them. */
type Asked = Pick<Order, "market"> & Partial<Pick<Order, "base_amount" | "quote_amount" | "price" | "stop_price">>;

/** A market buy placed in quote shows its quote amount. */
function AmountCell({ order }: { order: Asked }) {
  const { value, asset } = orderAmount(order);
  return <AssetAmount text={formatAsset(value, asset)} asset={asset} />;
}

/** A market order's price, unset ("" or "0"), reads "market"; a stop price beneath. */
function PriceCell({ order }: { order: Asked }) {
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
      <AssetAmount text={formatAmount(order.amount_filled)} asset={base} />
      {hasFill(order.amount_filled) && (
        <span className="block text-xs text-ink-muted">
          avg {formatAmount(order.volume_weighted_average_price, { min: 2 })}
        </span>
      )}
    </>
  );
}
