"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CsvButton } from "@/components/ui/csv-button";
import { DataTable } from "@/components/ui/data-table";
import { FilterBar, FilterSelect } from "@/components/ui/filter-bar";
import { LiveIndicator, refreshEvery } from "@/components/ui/live-indicator";
import { Pager, useCursorPager } from "@/components/ui/pager";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { SideBadge, StatusBadge } from "@/components/ui/status-badge";
import { SubmitterCell } from "@/components/ui/submitter-cell";
import { TableError, TableMessage } from "@/components/ui/table-message";
import { api, problemOf, query } from "@/lib/client/api";
import { formatAmount } from "@/lib/client/format";
import { Time } from "@/lib/client/time-zone";
import {
  anyOrderLive,
  hasFill,
  isCancellable,
  ORDER_CSV_HEADER,
  orderAmount,
  orderCsvRows,
  submitterOf,
} from "@/lib/client/order-rows";
import { useProfileNames } from "@/lib/client/profile-names";
import { keys, useSubmitters, type Page } from "@/lib/client/queries";
import { decimalSorting, timeSorting } from "@/lib/client/sorting";
import { MARKETS, ORDER_SIDES, ORDER_STATUSES, ORDER_TYPE_WORDS } from "@/lib/spec/enums";
import { MARKET_DETAILS } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import type { Problem } from "@/lib/spec/problem";

const PAGE_SIZE = 25;
const EMPTY_FILTERS = { profile: "", market: "", side: "", status: "" };

/** The service's orders: filters, sorting, cursor pages, CSV, who submitted each, and cancel. */
export function OrdersTable({ canCancel }: { canCancel: boolean }) {
  const [filters, setFilters] = useState(EMPTY_FILTERS);
  // Side is filtered here (the service has no side filter), so it does not reset the pages.
  const serverFilters = { profile: filters.profile, market: filters.market, status: filters.status };
  const pager = useCursorPager(JSON.stringify(serverFilters));
  const { profiles, nickname } = useProfileNames();

  const orders = useQuery({
    queryKey: keys.orders({ ...serverFilters, cursor: pager.cursor ?? "" }),
    queryFn: ({ signal }) =>
      api<Page<Order>>(
        `/api/v2/orders${query({
          profile_id: serverFilters.profile || undefined,
          market: serverFilters.market || undefined,
          status: serverFilters.status || undefined,
          limit: String(PAGE_SIZE),
          page_cursor: pager.cursor,
        })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => refreshEvery(anyOrderLive(q.state.data?.items ?? [])),
  });

  const loaded = orders.data?.items;
  const rows = useMemo(
    () => (filters.side ? loaded?.filter((o) => o.side === filters.side) : loaded),
    [loaded, filters.side],
  );
  const submitters = useSubmitters(
    "order",
    (loaded ?? []).map((o) => o.ref_id ?? ""),
  );

  const [cancelProblem, setCancelProblem] = useState<{ id: string; problem: Problem } | null>(null);
  const [announcement, setAnnouncement] = useState("");

  const columns = useMemo<ColumnDef<Order, unknown>[]>(() => {
    const cols: ColumnDef<Order, unknown>[] = [
      {
        id: "created_at",
        header: "Created",
        accessorFn: (o) => o.created_at,
        sortingFn: timeSorting,
        cell: ({ row }) => <Time iso={row.original.created_at} />,
      },
      { id: "profile", header: "Profile", accessorFn: (o) => nickname(o.profile_id) },
      { id: "market", header: "Market", accessorFn: (o) => o.market },
      {
        id: "side",
        header: "Side",
        accessorFn: (o) => o.side,
        cell: ({ row }) => <SideBadge side={row.original.side} />,
      },
      { id: "type", header: "Type", accessorFn: (o) => ORDER_TYPE_WORDS[o.type] ?? o.type },
      {
        id: "status",
        header: "Status",
        accessorFn: (o) => o.status,
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-1.5">
            <StatusBadge status={row.original.status} />
            {row.original.is_triggered && <span className="text-xs text-ink-muted">triggered</span>}
          </span>
        ),
      },
      {
        id: "amount",
        header: "Amount",
        accessorFn: (o) => orderAmount(o).value,
        sortingFn: decimalSorting,
        meta: { align: "right" },
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
        accessorFn: (o) => o.price,
        sortingFn: decimalSorting,
        meta: { align: "right" },
        cell: ({ row }) => <PriceCell order={row.original} />,
      },
      {
        id: "filled",
        header: "Filled",
        accessorFn: (o) => o.amount_filled,
        sortingFn: decimalSorting,
        meta: { align: "right" },
        // amount_filled is in the base asset, even for a market buy placed in quote.
        cell: ({ row }) => (
          <>
            {formatAmount(row.original.amount_filled)}{" "}
            <span className="text-xs text-ink-muted">{MARKET_DETAILS[row.original.market]?.base_asset}</span>
          </>
        ),
      },
      {
        id: "avg_price",
        header: "Avg price",
        accessorFn: (o) => o.volume_weighted_average_price,
        sortingFn: decimalSorting,
        meta: { align: "right" },
        cell: ({ row }) =>
          hasFill(row.original.amount_filled)
            ? formatAmount(row.original.volume_weighted_average_price, { min: 2 })
            : "—",
      },
      { id: "tif", header: "TIF", accessorFn: (o) => o.time_in_force },
      {
        id: "submitted_by",
        header: "Submitted by",
        accessorFn: (o) => submitterOf(o.ref_id ? submitters.data?.get(o.ref_id) : undefined),
        cell: ({ row }) => {
          const ref = row.original.ref_id;
          return <SubmitterCell entry={ref ? submitters.data?.get(ref) : undefined} loading={submitters.isLoading} />;
        },
      },
      {
        id: "id",
        header: "Order ID",
        accessorFn: (o) => o.id,
        enableSorting: false,
        cell: ({ row }) => <ShortId id={row.original.id} />,
      },
    ];
    if (canCancel) {
      cols.push({
        id: "actions",
        header: () => <span className="sr-only">Actions</span>,
        enableSorting: false,
        cell: ({ row }) =>
          isCancellable(row.original) ? (
            <CancelOrder
              order={row.original}
              onProblem={(problem) => setCancelProblem(problem && { id: row.original.id, problem })}
              onCancelled={() => setAnnouncement(`Order ${row.original.id.slice(0, 8)} cancelled.`)}
            />
          ) : null,
      });
    }
    return cols;
  }, [canCancel, nickname, submitters.data, submitters.isLoading]);

  const anyFilter = Object.values(filters).some(Boolean);
  const set = (k: keyof typeof EMPTY_FILTERS) => (v: string) => setFilters((f) => ({ ...f, [k]: v }));

  return (
    <Card
      title="Orders"
      actions={
        <div className="flex items-center gap-3">
          <LiveIndicator live={anyOrderLive(loaded ?? [])} />
          <CsvButton
            name="orders"
            header={ORDER_CSV_HEADER}
            rows={() => orderCsvRows(rows ?? [], nickname, submitters.data)}
            disabled={!rows?.length}
          />
        </div>
      }
    >
      <FilterBar label="Filter orders" active={anyFilter} onClear={() => setFilters(EMPTY_FILTERS)}>
        <FilterSelect
          label="Profile"
          value={filters.profile}
          onChange={set("profile")}
          options={profiles.map((p) => ({ value: p.id, label: p.nickname }))}
        />
        <FilterSelect
          label="Market"
          value={filters.market}
          onChange={set("market")}
          options={MARKETS}
          className="w-32"
        />
        <FilterSelect label="Side" value={filters.side} onChange={set("side")} options={ORDER_SIDES} className="w-28" />
        <FilterSelect
          label="Status"
          value={filters.status}
          onChange={set("status")}
          options={ORDER_STATUSES.map((s) => ({ value: s, label: s.replace(/_/g, " ") }))}
        />
      </FilterBar>
      <p className="sr-only" role="status">
        {announcement}
      </p>
      {cancelProblem && (
        <div className="mb-3">
          <ProblemAlert
            problem={cancelProblem.problem}
            title={`Order ${cancelProblem.id.slice(0, 8)} was not cancelled`}
          />
        </div>
      )}
      <div aria-busy={orders.isFetching} className={orders.isPlaceholderData ? "opacity-60 transition-opacity" : ""}>
        <DataTable
          caption="Orders"
          columns={columns}
          data={rows}
          loading={orders.isPending}
          error={
            orders.isError && !orders.data ? (
              <TableError error={orders.error} what="orders" onRetry={() => orders.refetch()} />
            ) : undefined
          }
          empty={
            <TableMessage>
              {anyFilter
                ? "No orders match these filters."
                : "No orders yet. Orders placed under any profile appear here."}
            </TableMessage>
          }
          rowKey={(o) => o.id}
          placeholderRows={10}
        />
      </div>
      <Pager
        label="Orders pages"
        page={pager.page}
        hasPrevious={pager.hasPrevious}
        hasNext={Boolean(orders.data?.next_page_cursor)}
        onPrevious={pager.previous}
        onNext={() => pager.next(orders.data?.next_page_cursor)}
        busy={orders.isFetching && orders.isPlaceholderData}
        summary={
          rows
            ? `${rows.length} ${rows.length === 1 ? "order" : "orders"}${filters.side ? ` (${filters.side} only)` : ""}`
            : undefined
        }
      />
    </Card>
  );
}

function PriceCell({ order }: { order: Order }) {
  return (
    <>
      {order.price ? formatAmount(order.price, { min: 2 }) : <span className="text-ink-muted">market</span>}
      {order.stop_price && (
        <span className="ml-1.5 text-xs text-ink-muted">stop {formatAmount(order.stop_price, { min: 2 })}</span>
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

/**
 * Cancel with a confirm step. "Keep" sits where "Cancel" was and takes the focus, so a
 * double click or a hasty Enter never cancels an order by itself.
 */
function CancelOrder({
  order,
  onProblem,
  onCancelled,
}: {
  order: Order;
  onProblem: (problem: Problem | null) => void;
  onCancelled: () => void;
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
    // Stay "in flight" until the table shows the new status, so the button cannot come back early.
    onSuccess: async () => {
      onCancelled();
      await Promise.all([
        client.invalidateQueries({ queryKey: ["orders"] }),
        client.invalidateQueries({ queryKey: ["balances"] }),
      ]);
    },
    onError: (error) => {
      onProblem(problemOf(error));
      setConfirming(false);
      setRefocus(true);
    },
  });
  const label = `${order.side} ${order.market} ${order.id.slice(0, 8)}`;

  if (cancel.isPending) {
    return (
      <Button key="pending" variant="secondary" disabled size="sm">
        Cancelling…
      </Button>
    );
  }
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
