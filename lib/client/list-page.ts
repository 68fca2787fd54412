"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import type { Page } from "@/lib/shared/list-routes";
import { api, query as search } from "./api";
import { currentPage, firstPage, popPage, pushPage, type CursorStack } from "./cursor-stack";
import { dayEnd, dayStart } from "../shared/date-range";
import { listSummary } from "../shared/list-summary";
import { refreshEvery, streamUp } from "./live-status";
import { useTimeZone } from "./time-zone";
import { useTypedFilter } from "./typed-filter";
import { useUrlFilters, type FilterSpec, type Filters } from "./url-filters";

/**
 * One way to build a list page: the filters in the URL, the list route's query, cursor paging,
 * live refresh and the line that says what the page holds. A table names its route and columns
 * (a `columns.tsx` beside it) and hands the result to `<ListCard>` (components/ui/list-card.tsx).
 */

/** The From and To day filters, for a table that has them. */
export const DAY_FILTERS = { from: null, to: null } as const;
/** "Show technical columns": a view, kept in the URL with the filters. */
export const TECHNICAL_VIEW = { tech: ["1"] } as const;
/** A sort among `sorts`, either way. */
export const sortFilters = <S extends readonly string[]>(sorts: S) => ({ sort: sorts, dir: ["asc", "desc"] as const });

/** A list route's query: a filter left unset is left out. */
export type ListQuery = Record<string, string | undefined>;

export interface ListSpec<K extends string, P extends Page<unknown>, Row> {
  /** Every filter as the page's URL names it, with the values it takes (null: any text). */
  filters: FilterSpec<K>;
  /**
   * The list route's query from the filters. `from` and `to`, where the table has them, are
   * days in the zone the person chose: the hook adds them as the instants the route takes.
   */
  query: (filters: Filters<K>) => ListQuery;
  /** The filter whose value is a sort, and the filter that must be set for it to apply
   *  (amounts of different markets or assets do not compare). */
  sortWithin?: K;
  /** The filter typed into (free text): the URL follows once typing pauses. */
  typed?: K;
  /** The dashboard's list route ("/api/orders"); its CSV export is `${route}/export.csv`. */
  route: string;
  pageSize: number;
  /** How a page is read, where a GET of the route is not all (the other legs of transfers). */
  fetchPage?: (query: ListQuery, cursor: string | undefined, signal: AbortSignal) => Promise<P>;
  /** The page's rows (default: its items), less those the page before already showed. */
  rows?: (page: P, carried: ReadonlySet<string>) => Row[];
  /** A row's key; the next page is told the keys shown, so a record split across two pages is shown once. */
  rowKey: (row: Row) => string;
  /** "Show technical columns": what they show, and the columns (the service's exact codes and ids). */
  technical?: { hint: string; columns: ColumnDef<Row, unknown>[] };
  /** Whether anything on the page can still change (polls faster); no indicator without it. */
  live?: (page: P | undefined) => boolean;
  /** Changes are pushed by GET /api/events while it is up: poll only while it is down. */
  pushed?: boolean;
  /** Singular and plural, "order" / "orders", for the summary. */
  noun: readonly [string, string];
  words: ListWords;
}

/** What a list page says: its title and caption, what it lists, its empty table. */
export interface ListWords {
  title: string;
  caption: string;
  /** "orders": "Filter orders", "Could not load orders". */
  what: string;
  /** The empty table's words: with filters set, and with none; `read`: what a walk reads ("transfer legs"). */
  empty: { filtered: string; none: string; read?: string };
}

/** GET `route` with the page's query, its size and cursor. */
export const readPage =
  <P>(route: string, pageSize: number) =>
  (q: ListQuery, cursor: string | undefined, signal: AbortSignal): Promise<P> =>
    api<P>(`${route}${search({ ...q, limit: String(pageSize), cursor })}`, { signal });

/** A cursor stack that starts over at page 1 whenever `resetKey` (the filters) changes. */
export function useCursorPager(resetKey: string) {
  const [state, setState] = useState<{ key: string; stack: CursorStack }>({ key: resetKey, stack: firstPage() });
  // Reset during render (React's "adjust state when a prop changes"), not in an effect: no stale fetch.
  if (state.key !== resetKey) setState({ key: resetKey, stack: firstPage() });
  const stack = state.key === resetKey ? state.stack : firstPage();
  const page = currentPage(stack);
  return {
    cursor: page.cursor,
    carry: page.carry,
    page: stack.length,
    hasPrevious: stack.length > 1,
    next: (cursor: string | null | undefined, carry?: readonly string[]) =>
      setState((s) => ({ ...s, stack: pushPage(s.stack, cursor, carry) })),
    previous: () => setState((s) => ({ ...s, stack: popPage(s.stack) })),
  };
}

const defined = (q: ListQuery): ListQuery => Object.fromEntries(Object.entries(q).map(([k, v]) => [k, v || undefined]));

export function useListPage<K extends string, P extends Page<unknown>, Row = P["items"][number]>(
  spec: ListSpec<K, P, Row>,
) {
  const { filters, update, clear } = useUrlFilters(spec.filters);
  const typedKey = spec.typed;
  const [typed, setTyped] = useTypedFilter(typedKey ? filters[typedKey] : "", (v) => {
    if (typedKey) update({ [typedKey]: v } as Partial<Filters<K>>);
  });
  const { zone } = useTimeZone();
  const days = filters as Partial<Record<string, string>>;
  const query = defined({
    ...spec.query(filters),
    ...("from" in spec.filters ? { from: dayStart(days.from ?? "", zone), to: dayEnd(days.to ?? "", zone) } : {}),
  });
  // A sort applies once what it compares is one asset: a market or asset chosen.
  const sortWithin = spec.sortWithin;
  const sortKey = "sort" as K;
  const sort: string | undefined = sortWithin && filters[sortWithin] && filters[sortKey] ? filters[sortKey] : undefined;
  const dir = (filters as Partial<Record<string, string>>).dir;
  const sorted: ListQuery = sort ? { sort, dir: dir || "desc" } : {};
  const pager = useCursorPager(JSON.stringify({ ...query, ...sorted }));

  const list = useQuery({
    // ["orders", {...}]: what a cancel or a pushed change invalidates (lib/client/queries.ts keys).
    queryKey: [spec.route.replace(/^\/api\//, ""), { ...query, ...sorted, cursor: pager.cursor ?? "" }],
    queryFn: ({ signal }) =>
      (spec.fetchPage ?? readPage<P>(spec.route, spec.pageSize))({ ...query, ...sorted }, pager.cursor, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      spec.pushed && streamUp() ? false : refreshEvery(spec.live?.(q.state.data as P | undefined) ?? false),
  });
  const data = list.data as P | undefined;
  const carry = pager.carry;
  const rowsOf = spec.rows;
  const rows = useMemo(() => {
    if (!data) return undefined;
    return rowsOf ? rowsOf(data, new Set(carry)) : (data.items as Row[]);
  }, [data, carry, rowsOf]);
  const hasNext = Boolean(data?.next_cursor);

  return {
    filters,
    update,
    /** Clears every filter, the text being typed included. */
    clear: () => {
      setTyped("");
      clear();
    },
    // "Show technical columns" is a view, not a filter: it neither empties the table nor needs clearing.
    active: Object.entries(filters).some(([k, v]) => k !== "tech" && v) || typed !== "",
    /** The typed filter's box: its text as typed, and its setter. */
    typed: [typed, setTyped] as const,
    /** The route's filters, without the sort: what Export CSV sends. */
    query,
    list,
    data,
    rows,
    words: spec.words,
    rowKey: spec.rowKey,
    technical: spec.technical,
    exportPath: `${spec.route}/export.csv`,
    live: spec.live ? spec.live(data) : undefined,
    pushed: Boolean(spec.pushed),
    sorting: sortWithin
      ? {
          /** Columns sort once what they compare is one asset. */
          enabled: Boolean(filters[sortWithin]),
          state: sort ? [{ id: sort, desc: dir !== "asc" }] : ([] as { id: string; desc: boolean }[]),
          onChange: (next: { id: string; desc: boolean }[]) =>
            update({ sort: next[0]?.id ?? "", dir: next[0] ? (next[0].desc ? "desc" : "asc") : "" } as Partial<
              Filters<K>
            >),
        }
      : undefined,
    pager: {
      page: pager.page,
      hasPrevious: pager.hasPrevious,
      hasNext,
      onPrevious: pager.previous,
      onNext: () => pager.next(data?.next_cursor, rows?.map(spec.rowKey)),
      busy: list.isFetching && list.isPlaceholderData,
      summary:
        data &&
        rows &&
        listSummary({
          shown: rows.length,
          noun: spec.noun,
          hasNext,
          // What the back end read, whenever it filtered, sorted by a column, or stopped short.
          scanned: data.walked || sort || data.truncated ? data.scanned : undefined,
          truncated: data.truncated,
        }),
    },
  };
}

export type ListPageState<Row> = ReturnType<typeof useListPage<string, Page<unknown>, Row>>;
