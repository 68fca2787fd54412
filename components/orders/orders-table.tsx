"use client";

import { useMemo } from "react";
import { SubRow } from "@/components/ui/data-table";
import { FilterSelect } from "@/components/ui/filter-bar";
import { ListCard, TechnicalToggle } from "@/components/ui/list-card";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { useOpenRows } from "@/components/ui/row-details";
import { api, query } from "@/lib/client/api";
import { useListPage, type ListQuery } from "@/lib/client/list-page";
import { anyOrderLive } from "@/lib/client/order-rows";
import { useProfileNames } from "@/lib/client/profile-names";
import { keys, useSubmitters } from "@/lib/client/queries";
import { statusWords } from "@/lib/shared/status-words";
import { useOfferedMarkets } from "@/lib/client/use-markets";
import { ORDER_SORTS, type Page } from "@/lib/lists";
import { MARKETS, ORDER_SIDES, ORDER_STATUSES, ORDER_TYPES, ORDER_TYPE_WORDS } from "@/lib/spec/enums";
import { marketLabel } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import { useCancels } from "./cancel-order";
import { ORDER_TECHNICAL_COLUMNS, orderColumns, orderDetailsRowId } from "./columns";
import { OrderDetails } from "./order-details";

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
  /** "1" shows the service's exact codes and ids. */
  tech: ["1"],
} as const;

const SPEC = {
  filters: FILTERS,
  query: ({ profile_id, market, status, side, type }: Record<keyof typeof FILTERS, string>) => ({
    profile_id,
    market,
    status,
    side,
    type,
  }),
  sortWithin: "market",
  queryKey: keys.orders,
  fetchPage: (q: ListQuery, cursor: string | undefined, signal: AbortSignal) =>
    api<Page<Order>>(`/api/orders${query({ ...q, limit: String(PAGE_SIZE), cursor })}`, { signal }),
  live: (page: Page<Order> | undefined) => anyOrderLive(page?.items ?? []),
  pushed: true,
  noun: ["order", "orders"],
} as const;

const orderId = (o: Order) => o.id;

/** The service's orders: filters across every page, sorting within one market, CSV of every match, cancel. */
export function OrdersTable({ canCancel }: { canCancel: boolean }) {
  const list = useListPage<keyof typeof FILTERS, Page<Order>>(SPEC);
  const { filters, update } = list;
  const { profiles, nickname } = useProfileNames();
  const offeredMarkets = useOfferedMarkets();
  const { isOpen, toggle } = useOpenRows<Order>(orderId);
  const cancels = useCancels();
  const submitters = useSubmitters(
    "order",
    (list.rows ?? []).map((o) => o.ref_id ?? ""),
  );
  const technical = filters.tech === "1";
  const { cancelling, requested, refused } = cancels;
  const columns = useMemo(
    () => [
      ...orderColumns({ nickname, isOpen, toggle, cancel: canCancel ? { cancelling, requested, refused } : null }),
      ...(technical ? ORDER_TECHNICAL_COLUMNS : []),
    ],
    [nickname, isOpen, toggle, canCancel, cancelling, requested, refused, technical],
  );

  return (
    <ListCard
      title="Orders"
      list={list}
      exportPath="/api/orders/export.csv"
      filterLabel="Filter orders"
      filters={
        <>
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
            options={ORDER_SIDES.map((s) => ({ value: s, label: statusWords(s) }))}
            className="w-28"
          />
          <FilterSelect
            label="Type"
            value={filters.type}
            onChange={(v) => update({ type: v })}
            options={ORDER_TYPES.map((t) => ({ value: t, label: statusWords(ORDER_TYPE_WORDS[t]) }))}
            className="w-36"
          />
          <FilterSelect
            label="Status"
            value={filters.status}
            onChange={(v) => update({ status: v })}
            options={ORDER_STATUSES.map((s) => ({ value: s, label: statusWords(s) }))}
          />
        </>
      }
      above={
        <>
          <TechnicalToggle list={list} hint="type and status codes, order ids" />
          {cancels.problem && (
            <div className="mb-3">
              <ProblemAlert
                problem={cancels.problem.problem}
                title={`Order ${cancels.problem.id.slice(0, 8)} was not cancelled`}
              />
            </div>
          )}
        </>
      }
      caption="Orders"
      columns={columns}
      what="orders"
      empty={{
        filtered: "No orders match these filters.",
        none: "No orders yet. Orders placed under any profile appear here.",
      }}
      rowKey={orderId}
      renderSubRows={(o) => (
        <SubRow id={orderDetailsRowId(o)} hidden={!isOpen(o)} width={columns.length}>
          <OrderDetails order={o} submitter={o.ref_id ? submitters.data?.get(o.ref_id) : undefined} />
        </SubRow>
      )}
      pagerLabel="Orders pages"
    />
  );
}
