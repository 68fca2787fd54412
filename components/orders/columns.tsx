"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { IntentLink } from "@/components/ui/intent-link";
import { AssetAmount } from "@/components/ui/asset-amount";
import { HeldIdentity, HeldStatus } from "@/components/ui/held-status";
import { RowIdentity } from "@/components/ui/row-details";
import { SideBadge, StatusBadge } from "@/components/ui/status-badge";
import { formatAmount, formatAsset } from "@/lib/shared/format";
import { AWAITING_APPROVAL, heldRowKey, isHeldRow, type HeldOrder } from "@/lib/shared/held-requests";
import { hasFill, isCancellable, orderAmount, orderBadgeStatus } from "@/lib/shared/order-rows";
import {
  filledPercent,
  isParentRow,
  parentRowKey,
  slicesSentWords,
  type ParentRow,
} from "@/lib/shared/parent-order-rows";
import { parentOrderHref } from "@/lib/shared/parent-order-words";
import { amountIfSet } from "@/lib/spec/decimal";
import { ORDER_TYPE_WORDS } from "@/lib/spec/enums";
import { isMarket, marketAssets, marketLabel } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import type { Problem } from "@/lib/spec/problem";
import { CancelOrder, CancellingButton } from "./cancel-order";
import { ShortId } from "../ui/short-id";
import { parentChildRowIds } from "./parent-child-rows";
import { tickPrice } from "./describe-parent-order";

/**
 * The orders table's columns: what a desk reads at a glance (the order, its amount, price,
 * fill and status) and Cancel. Ids, who submitted it and the rest are in its details row;
 * the service's exact codes behind "Show technical columns". An order the desk's four eyes hold
 * is a row too, on top: its request, "Awaiting approval", who asked, its expiry and its approval.
 */

/**
 * A row of the orders table: the service's order, a held one not sent yet, or a TWAP parent
 * order (issue 29), its children beneath it.
 */
export type OrderRow = Order | HeldOrder | ParentRow;

export const orderRowKey = (r: OrderRow): string =>
  isParentRow(r) ? parentRowKey(r.parent) : isHeldRow<HeldOrder>(r) ? heldRowKey(r) : r.id;

export interface OrderColumnsContext {
  nickname: (profileId: string) => string;
  isOpen: (row: Order | ParentRow) => boolean;
  toggle: (row: Order | ParentRow) => void;
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
        if (isParentRow(o))
          return <ParentIdentity row={o} nickname={nickname} open={isOpen(o)} toggle={() => toggle(o)} />;
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
    {
      id: "price",
      header: "Price",
      ...sortable,
      cell: ({ row: { original: o } }) => (isParentRow(o) ? <CapCell row={o} /> : <PriceCell order={asked(o)} />),
    },
    {
      id: "filled",
      header: "Filled",
      ...sortable,
      cell: ({ row: { original: o } }) =>
        isParentRow(o) ? (
          <ParentFilledCell row={o} />
        ) : isHeldRow<HeldOrder>(o) ? (
          <Code>{undefined}</Code>
        ) : (
          <FilledCell order={o} />
        ),
    },
    {
      id: "status",
      header: "Status",
      cell: ({ row: { original: o } }) =>
        isParentRow(o) ? (
          <span className="inline-flex flex-col items-start gap-0.5">
            <StatusBadge status={o.parent.status} />
            <span className="text-xs text-ink-muted">{slicesSentWords(o.parent)}</span>
          </span>
        ) : isHeldRow<HeldOrder>(o) ? (
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
      // A parent order is paused, resumed or cancelled on its own page.
      if (isParentRow(o) || isHeldRow<HeldOrder>(o)) return null;
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
  {
    id: "service_type",
    header: "Type code",
    cell: ({ row: { original: o } }) => <Code>{isParentRow(o) ? o.parent.strategy : asked(o).type}</Code>,
  },
  {
    id: "service_status",
    header: "Status code",
    cell: ({ row: { original: o } }) => (
      <Code>{isParentRow(o) ? o.parent.status : isHeldRow<HeldOrder>(o) ? AWAITING_APPROVAL : o.status}</Code>
    ),
  },
  {
    id: "order_id",
    header: "Order ID",
    cell: ({ row: { original: o } }) => (
      <Code>{isParentRow(o) ? o.parent.id : isHeldRow<HeldOrder>(o) ? undefined : o.id}</Code>
    ),
  },
];

/** What the row asks of the market: the service's order, a held order's request, or a parent's whole at its cap. */
const asked = (o: Order | HeldOrder | ParentRow): Asked & { type?: string } =>
  isParentRow(o)
    ? { market: o.parent.market as Order["market"], base_amount: o.parent.base_amount, price: o.parent.limit_price }
    : isHeldRow<HeldOrder>(o)
      ? o.request
      : o;

/**
 * A parent order's identity: when it was asked, what, and the way to its page; its ▸ shows the
 * children it has sent beneath it.
 */
function ParentIdentity({
  row,
  nickname,
  open,
  toggle,
}: {
  row: ParentRow;
  nickname: (profileId: string) => string;
  open: boolean;
  toggle: () => void;
}) {
  const p = row.parent;
  const id = p.id.slice(0, 8);
  const expand = {
    open,
    controls: parentChildRowIds(row).join(" "),
    label: `${open ? "Hide" : "Show"} the slices of parent order ${id}`,
    onClick: toggle,
  };
  return (
    <RowIdentity at={p.created_at} expand={expand}>
      {nickname(p.profile_id)} · {marketLabel(p.market)} · <SideBadge side={p.side} />
      <span className="block text-ink-muted">
        TWAP, {p.slices.toLocaleString("en-US")} slices ·{" "}
        <IntentLink
          href={parentOrderHref(p.id)}
          aria-label={`Open parent order ${id}`}
          className="text-brand underline underline-offset-2"
        >
          <ShortId id={p.id} />
        </IntentLink>
      </span>
    </RowIdentity>
  );
}

/** A parent's cap: the worst price any child may fill at. */
function CapCell({ row }: { row: ParentRow }) {
  return (
    <>
      {formatAmount(row.parent.limit_price, { min: 2 })}
      <span className="block text-xs text-ink-muted">cap</span>
    </>
  );
}

/** What a parent's children filled, added up exactly, its average price, and a bar of how far it has come. */
function ParentFilledCell({ row }: { row: ParentRow }) {
  const p = row.parent;
  const base = marketAssets(p.market)?.base_asset;
  const percent = filledPercent(p);
  return (
    <>
      <AssetAmount text={formatAmount(p.filled_base)} asset={base} />
      {hasFill(p.filled_base) && (
        <span className="block text-xs text-ink-muted">avg {tickPrice(p.average_price, p.market)}</span>
      )}
      <span
        role="progressbar"
        aria-label={`Parent order ${p.id.slice(0, 8)} filled`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-1 ml-auto block h-1 w-16 overflow-hidden rounded-full bg-surface-sunken"
      >
        <span className="block h-full bg-buy" style={{ width: `${percent}%` }} />
      </span>
    </>
  );
}

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
