"use client";

import { useMemo } from "react";
import { SubRow } from "@/components/ui/data-table";
import { ListCard, ListSelect, ProfileSelect } from "@/components/ui/list-card";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { useOpenRows } from "@/components/ui/row-details";
import { sortFilters, TECHNICAL_VIEW, useListPage, type ListPageState } from "@/lib/client/list-page";
import { anyOrderLive } from "@/lib/shared/order-rows";
import { isParentRow, withParentRows } from "@/lib/shared/parent-order-rows";
import { useParentOrders } from "@/lib/client/parent-orders";
import { AWAITING_APPROVAL, isHeldRow, type HeldOrder, type PageWithHeld } from "@/lib/shared/held-requests";
import { useHeldRefresh } from "@/lib/client/held-refresh";
import { useProfileNames } from "@/lib/client/profile-names";
import { useSubmitters } from "@/lib/client/queries";
import { statusWords } from "@/lib/shared/status-words";
import { useOfferedMarkets } from "@/lib/client/use-markets";
import { ORDER_SORTS } from "@/lib/shared/list-routes";
import { MARKETS, ORDER_SIDES, ORDER_STATUSES, ORDER_TYPES, ORDER_TYPE_WORDS } from "@/lib/spec/enums";
import { marketLabel } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import { useCancels } from "./cancel-order";
import { ORDER_TECHNICAL_COLUMNS, orderColumns, orderDetailsRowId, orderRowKey, type OrderRow } from "./columns";
import { OrderDetails } from "./order-details";
import { ParentChildRows } from "./parent-child-rows";

/** The service's statuses, and the dashboard's own for orders held for four eyes. */
const ORDER_STATUS_FILTER = [...ORDER_STATUSES, AWAITING_APPROVAL] as const;
/** Every filter and the sort, as the page's URL and GET /api/orders name them. */
const FILTERS = {
  ...{ profile_id: null, market: MARKETS, side: ORDER_SIDES, type: ORDER_TYPES, status: ORDER_STATUS_FILTER },
  ...sortFilters(ORDER_SORTS),
  ...TECHNICAL_VIEW,
} as const;
const SIDES = ORDER_SIDES.map((s) => ({ value: s, label: statusWords(s) }));
const TYPES = ORDER_TYPES.map((t) => ({ value: t, label: statusWords(ORDER_TYPE_WORDS[t]) }));
const STATUSES = ORDER_STATUS_FILTER.map((s) => ({ value: s, label: statusWords(s) }));

/** A page of GET /api/orders: the first carries the held orders that match, drawn on top. */
type OrdersPage = PageWithHeld<Order, HeldOrder>;
const isOrder = (r: OrderRow): r is Order => !isHeldRow(r) && !isParentRow(r);

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
  route: "/api/orders",
  pageSize: 25,
  rows: (page: OrdersPage): OrderRow[] => [...(page.held ?? []), ...page.items],
  live: (page: OrdersPage | undefined) => anyOrderLive(page?.items ?? []),
  pushed: true,
  noun: ["order", "orders"],
  words: {
    title: "Orders",
    caption: "Orders",
    what: "orders",
    empty: {
      filtered: "No orders match these filters.",
      none: "No orders yet. Orders placed under any profile appear here.",
    },
  },
  rowKey: orderRowKey,
  technical: { hint: "type and status codes, order ids", columns: ORDER_TECHNICAL_COLUMNS },
} as const;

/**
 * The service's orders, and on top the held ones waiting for four eyes and the desk's TWAP parent
 * orders, each with the children it sent beneath it (issue 29): filters across every page,
 * sorting within one market, CSV of every match, cancel.
 */
export function OrdersTable({ canCancel }: { canCancel: boolean }) {
  const listed = useListPage<keyof typeof FILTERS, OrdersPage, OrderRow>(SPEC);
  const parents = useParentOrders();
  const { rows: pageRows, filters, pager } = listed;
  const rows = useMemo(
    () => pageRows && withParentRows(pageRows, parents.data ?? [], { filters, firstPage: pager.page === 1, isOrder }),
    [pageRows, parents.data, filters, pager.page],
  );
  // The page's rows with the parents among them; the summary still counts the service's orders.
  const list = { ...listed, rows };
  useHeldRefresh("order", list.data?.held, list.list.refetch);
  const { nickname } = useProfileNames();
  const { isOpen, toggle } = useOpenRows<OrderRow>(orderRowKey);
  const orders = useMemo(() => list.rows?.filter(isOrder), [list.rows]);
  const cancels = useCancels(orders);
  const submitters = useSubmitters(
    "order",
    (orders ?? []).map((o) => o.ref_id ?? ""),
  );
  const { cancelling, requested, refused } = cancels;
  const columns = useMemo(
    () => orderColumns({ nickname, isOpen, toggle, cancel: canCancel ? { cancelling, requested, refused } : null }),
    [nickname, isOpen, toggle, canCancel, cancelling, requested, refused],
  );

  return (
    <ListCard
      list={list}
      filters={<OrderFilters list={list} />}
      above={
        cancels.problem && (
          <div className="mb-3">
            <ProblemAlert
              problem={cancels.problem.problem}
              title={`Order ${cancels.problem.id.slice(0, 8)} was not cancelled`}
            />
          </div>
        )
      }
      columns={columns}
      waiting={parents.isPending}
      renderSubRows={(o, width) =>
        isParentRow(o) ? (
          <ParentChildRows row={o} hidden={!isOpen(o)} width={width} />
        ) : (
          isOrder(o) && (
            <SubRow id={orderDetailsRowId(o)} hidden={!isOpen(o)} width={width}>
              <OrderDetails order={o} submitter={o.ref_id ? submitters.data?.get(o.ref_id) : undefined} />
            </SubRow>
          )
        )
      }
    />
  );
}

/** Profile, market (those offered), side, type and status. */
function OrderFilters({ list }: { list: ListPageState<OrderRow> }) {
  const markets = useOfferedMarkets().map((m) => ({ value: m, label: marketLabel(m) }));
  return (
    <>
      <ProfileSelect list={list} name="profile_id" />
      <ListSelect list={list} name="market" label="Market" options={markets} className="w-32" />
      <ListSelect list={list} name="side" label="Side" options={SIDES} className="w-28" />
      <ListSelect list={list} name="type" label="Type" options={TYPES} className="w-36" />
      <ListSelect list={list} name="status" label="Status" options={STATUSES} />
    </>
  );
}
