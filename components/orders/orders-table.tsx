"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ColumnDef, SortingState } from "@tanstack/react-table";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable, SubRow } from "@/components/ui/data-table";
import { FilterBar, FilterSelect } from "@/components/ui/filter-bar";
import { refreshEvery } from "@/components/ui/live-indicator";
import { Pager, useCursorPager } from "@/components/ui/pager";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { DetailItem, DetailList, ExpandButton, useOpenRows } from "@/components/ui/row-details";
import { SideBadge, StatusBadge } from "@/components/ui/status-badge";
import { ApprovedBy, SubmitterCell } from "@/components/ui/submitter-cell";
import { TableActions } from "@/components/ui/table-actions";
import { FetchShade, TableMessage, tableStateOf } from "@/components/ui/table-message";
import { useToast } from "@/components/ui/toasts";
import { api, problemOf, query } from "@/lib/client/api";
import { formatAmount } from "@/lib/client/format";
import { listSummary } from "@/lib/client/list-summary";
import { streamUp } from "@/lib/client/live-status";
import { anyOrderLive, hasFill, isCancellable, orderAmount, orderBadgeStatus } from "@/lib/client/order-rows";
import { useProfileNames } from "@/lib/client/profile-names";
import { useOfferedMarkets } from "@/lib/client/use-markets";
import { keys, useSubmitters } from "@/lib/client/queries";
import { Time } from "@/lib/client/time-zone";
import { useUrlFilters, type FilterSpec } from "@/lib/client/url-filters";
import { ORDER_SORTS, type ListPage, type OrderSort } from "@/lib/lists";
import { MARKETS, ORDER_SIDES, ORDER_STATUSES, ORDER_TYPES, ORDER_TYPE_WORDS } from "@/lib/spec/enums";
import { amountIfSet } from "@/lib/spec/decimal";
import { isMarket, marketAssets, marketLabel } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import type { JournalEntry } from "@/lib/journal";
import { isFinalOrder, orderEndNotice } from "./order-outcome";
import type { Problem } from "@/lib/spec/problem";

const PAGE_SIZE = 25;
/** Every filter and the sort, as the page's URL and GET /api/orders name them. */
const FILTERS = {
  profile_id: null,
  market: MARKETS,
  side: ORDER_SIDES,
  type: ORDER_TYPES,
  status: ORDER_STATUSES,
  sort: ORDER_SORTS,
  dir: ["asc", "desc"],
} as const satisfies FilterSpec<string>;
/** How long a row may say "Cancelling…" before it offers Cancel again, if the status never changes. */
const CANCELLING_FOR_MS = 30_000;
const SORT_HINT = "Choose a market to sort: amounts and prices of different markets are in different assets";

/** The service's orders: filters across every page, sorting within one market, CSV of every match, cancel. */
export function OrdersTable({ canCancel }: { canCancel: boolean }) {
  const { filters, update, clear, active } = useUrlFilters(FILTERS);
  // Sorting compares one asset only: it needs a market, and a market cleared drops it.
  const sort = filters.market && filters.sort ? (filters.sort as OrderSort) : undefined;
  const listQuery = {
    profile_id: filters.profile_id || undefined,
    market: filters.market || undefined,
    status: filters.status || undefined,
    side: filters.side || undefined,
    type: filters.type || undefined,
  };
  const sortQuery = { sort, dir: sort ? filters.dir || "desc" : undefined };
  const pager = useCursorPager(JSON.stringify({ ...listQuery, ...sortQuery }));
  const { profiles, nickname } = useProfileNames();
  const offeredMarkets = useOfferedMarkets();
  const notify = useToast();
  const { isOpen, toggle } = useOpenRows<Order>(orderId);

  const orders = useQuery({
    queryKey: keys.orders({ ...listQuery, ...sortQuery, cursor: pager.cursor ?? "" }),
    queryFn: ({ signal }) =>
      api<ListPage<Order>>(
        `/api/orders${query({ ...listQuery, ...sortQuery, limit: String(PAGE_SIZE), cursor: pager.cursor })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    // Pushed by GET /api/events while it is up; polled while it is down.
    refetchInterval: (q) => (streamUp() ? false : refreshEvery(anyOrderLive(q.state.data?.items ?? []))),
  });
  const rows = orders.data?.items;
  const submitters = useSubmitters(
    "order",
    (rows ?? []).map((o) => o.ref_id ?? ""),
  );

  const [cancelProblem, setCancelProblem] = useState<{ id: string; problem: Problem } | null>(null);
  // Orders whose cancel the service acknowledged: "Cancelling…" until their status moves on.
  const [cancelling, setCancelling] = useState<ReadonlySet<string>>(new Set());
  const stopCancelling = useCallback(
    (id: string) =>
      setCancelling((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      }),
    [],
  );
  const cancelRequested = useCallback(
    (order: Order) => {
      // The row says "Cancelling…" now; the one notice comes when the order has ended (below).
      setCancelling((s) => new Set(s).add(order.id));
      setTimeout(() => stopCancelling(order.id), CANCELLING_FOR_MS);
    },
    [stopCancelling],
  );
  // One notice per cancel, when the order the person cancelled ends: the same notice (by key)
  // the ticket's result card gives when it follows that order.
  const told = useRef(new Set<string>());
  useEffect(() => {
    for (const o of rows ?? []) {
      if (!cancelling.has(o.id) || !isFinalOrder(o.status) || told.current.has(o.id)) continue;
      told.current.add(o.id);
      notify(orderEndNotice(o));
    }
  }, [rows, cancelling, notify]);

  const sorting: SortingState = sort ? [{ id: sort, desc: filters.dir !== "asc" }] : [];
  const sortable = Boolean(filters.market);
  const columns = useMemo<ColumnDef<Order, unknown>[]>(() => {
    const cols: ColumnDef<Order, unknown>[] = [
      {
        id: "order",
        header: "Order",
        meta: { sticky: "left", label: "", sortHint: "Newest first" },
        cell: ({ row }) => {
          const o = row.original;
          return (
            <div className="flex items-start gap-1.5">
              <ExpandButton
                open={isOpen(o)}
                controls={detailsRowId(o)}
                label={`${isOpen(o) ? "Hide" : "Show"} the details of order ${o.id.slice(0, 8)}`}
                onClick={() => toggle(o)}
              />
              <div className="leading-tight">
                <Time iso={o.created_at} />
                <div className="text-xs">
                  {nickname(o.profile_id)} · {marketLabel(o.market)} · <SideBadge side={o.side} />
                </div>
              </div>
            </div>
          );
        },
      },
      {
        id: "type",
        header: "Type",
        cell: ({ row }) => (
          <>
            {ORDER_TYPE_WORDS[row.original.type] ?? row.original.type}{" "}
            <span className="text-xs text-ink-muted">{row.original.time_in_force}</span>
          </>
        ),
      },
      {
        id: "status",
        header: "Status",
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-1.5">
            <StatusBadge status={orderBadgeStatus(row.original)} />
            {row.original.is_triggered && <span className="text-xs text-ink-muted">triggered</span>}
          </span>
        ),
      },
      {
        id: "amount",
        header: "Amount",
        enableSorting: sortable,
        meta: { align: "right", sortHint: SORT_HINT },
        cell: ({ row }) => {
          const { value, asset } = orderAmount(row.original);
          return (
            <>
              {formatAmount(value)} <span className="text-xs text-ink-muted">{asset}</span>
            </>
          );
        },
      },
      {
        id: "price",
        header: "Price",
        enableSorting: sortable,
        meta: { align: "right", sortHint: SORT_HINT },
        cell: ({ row }) => <PriceCell order={row.original} />,
      },
      {
        id: "filled",
        header: "Filled",
        enableSorting: sortable,
        meta: { align: "right", sortHint: SORT_HINT },
        cell: ({ row }) => <FilledCell order={row.original} />,
      },
      {
        id: "submitted_by",
        header: "Submitted by",
        cell: ({ row }) => {
          const ref = row.original.ref_id;
          return <SubmitterCell entry={ref ? submitters.data?.get(ref) : undefined} loading={submitters.isLoading} />;
        },
      },
      {
        id: "id",
        header: "Order ID",
        cell: ({ row }) => <ShortId id={row.original.id} />,
      },
    ];
    if (canCancel) {
      cols.push({
        id: "actions",
        header: () => <span className="sr-only">Actions</span>,
        meta: { sticky: "right", label: "" },
        cell: ({ row }) => {
          const o = row.original;
          // A market the spec does not name is shown read-only: the dashboard does not trade it.
          if (!isCancellable(o) || !isMarket(o.market)) return null;
          if (cancelling.has(o.id)) return <CancellingButton />;
          return (
            <CancelOrder
              order={o}
              onProblem={(problem) => setCancelProblem(problem && { id: o.id, problem })}
              onRequested={() => cancelRequested(o)}
            />
          );
        },
      });
    }
    return cols;
  }, [
    canCancel,
    nickname,
    submitters.data,
    submitters.isLoading,
    isOpen,
    toggle,
    sortable,
    cancelling,
    cancelRequested,
  ]);

  const data = orders.data;
  // What the back end read says how many it read whenever it filtered, sorted by a column, or stopped short.
  const walked = Boolean(data?.walked || sort || data?.truncated);

  return (
    <Card
      title="Orders"
      actions={<TableActions live={anyOrderLive(rows ?? [])} exportPath="/api/orders/export.csv" filters={listQuery} />}
    >
      <FilterBar label="Filter orders" active={active} onClear={clear}>
        <FilterSelect
          label="Profile"
          value={filters.profile_id}
          onChange={(v) => update({ profile_id: v })}
          options={profiles.map((p) => ({ value: p.id, label: p.nickname }))}
          primary
        />
        <FilterSelect
          label="Market"
          value={filters.market}
          onChange={(v) => update({ market: v })}
          options={offeredMarkets.map((m) => ({ value: m, label: marketLabel(m) }))}
          className="w-32"
        />
        <FilterSelect
          label="Side"
          value={filters.side}
          onChange={(v) => update({ side: v })}
          options={ORDER_SIDES}
          className="w-28"
        />
        <FilterSelect
          label="Type"
          value={filters.type}
          onChange={(v) => update({ type: v })}
          options={ORDER_TYPES.map((t) => ({ value: t, label: ORDER_TYPE_WORDS[t] }))}
          className="w-36"
        />
        <FilterSelect
          label="Status"
          value={filters.status}
          onChange={(v) => update({ status: v })}
          options={ORDER_STATUSES.map((s) => ({ value: s, label: s.replace(/_/g, " ") }))}
        />
      </FilterBar>
      {cancelProblem && (
        <div className="mb-3">
          <ProblemAlert
            problem={cancelProblem.problem}
            title={`Order ${cancelProblem.id.slice(0, 8)} was not cancelled`}
          />
        </div>
      )}
      <FetchShade query={orders}>
        <DataTable
          caption="Orders"
          columns={columns}
          data={rows}
          {...tableStateOf(orders, "orders")}
          empty={
            <TableMessage>
              {active
                ? data?.truncated
                  ? `No match among the ${data.scanned.toLocaleString("en-US")} orders read; Next reads on.`
                  : "No orders match these filters."
                : "No orders yet. Orders placed under any profile appear here."}
            </TableMessage>
          }
          rowKey={orderId}
          renderSubRows={(o) => (
            <SubRow id={detailsRowId(o)} hidden={!isOpen(o)} width={columns.length}>
              <OrderDetails order={o} submitter={o.ref_id ? submitters.data?.get(o.ref_id) : undefined} />
            </SubRow>
          )}
          sorting={{
            state: sorting,
            onChange: (next) =>
              update({ sort: next[0]?.id ?? "", dir: next[0] ? (next[0].desc ? "desc" : "asc") : "" }),
          }}
          placeholderRows={10}
        />
      </FetchShade>
      <Pager
        label="Orders pages"
        page={pager.page}
        hasPrevious={pager.hasPrevious}
        hasNext={Boolean(data?.next_cursor)}
        onPrevious={pager.previous}
        onNext={() => pager.next(data?.next_cursor)}
        busy={orders.isFetching && orders.isPlaceholderData}
        summary={
          data &&
          listSummary({
            shown: data.items.length,
            noun: ["order", "orders"],
            hasNext: Boolean(data.next_cursor),
            scanned: walked ? data.scanned : undefined,
            truncated: data.truncated,
          })
        }
      />
    </Card>
  );
}

const orderId = (o: Order) => o.id;
const detailsRowId = (o: Order) => `order-details-${o.id}`;

/** A market order's price, unset ("" or "0"), reads "market". */
function PriceCell({ order }: { order: Order }) {
  const [price, stop] = [amountIfSet(order.price), amountIfSet(order.stop_price)];
  return (
    <>
      {price ? formatAmount(price, { min: 2 }) : <span className="text-ink-muted">market</span>}
      {stop && <span className="ml-1.5 text-xs text-ink-muted">stop {formatAmount(stop, { min: 2 })}</span>}
    </>
  );
}

/** amount_filled is in the base asset, even for a market buy placed in quote; its average price beside it. */
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

function ShortId({ id }: { id: string }) {
  return (
    <span className="font-mono text-xs text-ink-muted" title={id}>
      {id.slice(0, 8)}
    </span>
  );
}

/** What the row has no room for: ids, time in force and expiry, average price, who, metadata. */
function OrderDetails({
  order: o,
  submitter,
}: {
  order: Order;
  submitter: Pick<JournalEntry, "user_email" | "user_role" | "approval"> | undefined;
}) {
  return (
    <DetailList>
      <DetailItem label="Order ID">
        <span className="font-mono">{o.id}</span>
      </DetailItem>
      {o.ref_id && (
        <DetailItem label="Ref ID">
          <span className="font-mono">{o.ref_id}</span>
        </DetailItem>
      )}
      <DetailItem label="Time in force">{o.time_in_force}</DetailItem>
      {o.expiration_date && (
        <DetailItem label="Expires">
          <Time iso={/^\d{13}$/.test(o.expiration_date) ? Number(o.expiration_date) : o.expiration_date} />
        </DetailItem>
      )}
      <DetailItem label="Avg price">
        {hasFill(o.amount_filled) ? formatAmount(o.volume_weighted_average_price, { min: 2 }) : "—"}
      </DetailItem>
      <DetailItem label="Updated">
        <Time iso={o.modified_at} />
      </DetailItem>
      <DetailItem label="Submitted by">
        {submitter ? `${submitter.user_email} (${submitter.user_role})` : "outside the dashboard"}
      </DetailItem>
      {submitter?.approval && (
        <DetailItem label="Approved">
          <ApprovedBy entry={submitter} />
        </DetailItem>
      )}
      {o.recipient_profile_id && <DetailItem label="Recipient profile">{o.recipient_profile_id}</DetailItem>}
      {o.identity_id && (
        <DetailItem label="Identity">
          {o.identity_id} / {o.identity_account_id}
        </DetailItem>
      )}
      {o.metadata && Object.keys(o.metadata).length > 0 && (
        <DetailItem label="Metadata">
          <span className="inline-flex flex-wrap gap-1">
            {Object.entries(o.metadata).map(([k, v]) => (
              <code key={k} className="rounded bg-surface-sunken px-1.5 py-0.5">
                {k}={String(v)}
              </code>
            ))}
          </span>
        </DetailItem>
      )}
    </DetailList>
  );
}

function CancellingButton() {
  return (
    <Button variant="secondary" disabled size="sm">
      Cancelling…
    </Button>
  );
}

/**
 * Cancel with a confirm step. "Keep" sits where "Cancel" was and takes the focus, so a
 * double click or a hasty Enter never cancels an order by itself.
 */
function CancelOrder({
  order,
  onProblem,
  onRequested,
}: {
  order: Order;
  onProblem: (problem: Problem | null) => void;
  /** The service acknowledged the cancel; the order's status will follow. */
  onRequested: () => void;
}) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  // After "Keep" or Escape the focus goes back to "Cancel" instead of being lost.
  const [refocus, setRefocus] = useState(false);
  const keep = () => {
    setConfirming(false);
    setRefocus(true);
  };
  const cancel = useMutation({
    mutationFn: () =>
      api<object>(`/api/v2/profiles/${encodeURIComponent(order.profile_id)}/orders/${encodeURIComponent(order.id)}`, {
        method: "DELETE",
      }),
    onMutate: () => onProblem(null),
    onSuccess: () => {
      onRequested();
      void client.invalidateQueries({ queryKey: ["orders"] });
      void client.invalidateQueries({ queryKey: ["balances"] });
    },
    onError: (error) => {
      onProblem(problemOf(error));
      setConfirming(false);
      setRefocus(true);
    },
  });
  const label = `${order.side} ${marketLabel(order.market)} ${order.id.slice(0, 8)}`;

  if (cancel.isPending) return <CancellingButton />;
  if (!confirming) {
    return (
      // Its own key: a remount is what makes autoFocus take effect after an error.
      <Button
        key="trigger"
        variant="secondary"
        autoFocus={refocus}
        size="sm"
        aria-label={`Cancel order ${label}`}
        onClick={() => setConfirming(true)}
      >
        Cancel
      </Button>
    );
  }
  return (
    <span
      role="group"
      aria-label={`Confirm cancel of order ${label}`}
      className="inline-flex items-center gap-1.5"
      onKeyDown={(e) => {
        if (e.key === "Escape") keep();
      }}
    >
      <Button variant="secondary" size="sm" autoFocus onClick={keep}>
        Keep
      </Button>
      <Button variant="danger" size="sm" onClick={() => cancel.mutate()}>
        Cancel order
      </Button>
    </span>
  );
}
