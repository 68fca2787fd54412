"use client";

import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type CellContext,
  type ColumnDef,
  type RowData,
  type SortingState,
} from "@tanstack/react-table";
import { useMemo, type ReactNode } from "react";
import { useScrollHint } from "./scroll-hint";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the generics must match the library's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Numbers line up on the right, header and cells alike. */
    align?: "right";
    /**
     * Stays in view while the table scrolls sideways (from the phone breakpoint up): the row's
     * identity on the left, its action on the right.
     */
    sticky?: "left" | "right";
    /** The label of the cell's value on a phone, where each row is a card; defaults to the header. */
    label?: string;
    /** Why the column does not sort now, shown as the header's title. */
    sortHint?: string;
    /** A width reserved for the column (whole classes, "sm:w-28 sm:min-w-28"), so what opens in its cells never widens the table. */
    width?: string;
    /** Attributes of a row's cell in this column: a refused value's `aria-invalid` and the id of its message. */
    cellAttributes?: (row: TData) => Record<string, string | undefined>;
  }
}

/** Sorting done by the back end over every matching record: the table only shows and asks. */
export interface ServerSorting {
  /** False while sorting makes no sense (no market chosen): the columns say why in their title. */
  enabled?: boolean;
  state: SortingState;
  onChange: (next: SortingState) => void;
}

interface Props<T> {
  caption: string;
  columns: ColumnDef<T, unknown>[];
  data: T[] | undefined;
  loading: boolean;
  error?: ReactNode;
  empty: ReactNode;
  rowKey: (row: T) => string;
  /** Extra rows under a row (the legs of a transfer, an order's details). */
  renderSubRows?: (row: T) => ReactNode;
  /** Rows shown while loading, so the page does not jump when data arrives. */
  placeholderRows?: number;
  /** Columns sort only where `sorting` is given and the column enables it. */
  sorting?: ServerSorting;
}

/**
 * A table with loading, empty and error states that keep their height. From 640 px up it is a
 * table whose sticky columns stay in view when the rest scrolls sideways; below, each row is a
 * card of label and value pairs, so a phone never scrolls sideways.
 */
export function DataTable<T>({
  caption,
  columns,
  data,
  loading,
  error,
  empty,
  rowKey,
  renderSubRows,
  placeholderRows = 8,
  sorting,
}: Props<T>) {
  // The table caches each row's values until `data` changes; accessors that read lookups
  // (profile nicknames, the journal) come with new columns, so new columns rebuild the rows.
  const rows = useMemo(() => (data ? [...data] : []), [data, columns]); // eslint-disable-line react-hooks/exhaustive-deps
  // The table instance is rebuilt every render by design; the React Compiler just skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    defaultColumn: { enableSorting: false },
    state: { sorting: sorting?.state ?? [] },
    manualSorting: true,
    enableSorting: sorting?.enabled ?? Boolean(sorting),
    onSortingChange: (updater) => {
      if (!sorting) return;
      sorting.onChange(typeof updater === "function" ? updater(sorting.state) : updater);
    },
    getCoreRowModel: getCoreRowModel(),
    getRowId: rowKey,
  });
  const width = columns.length;
  const scroll = useScrollHint();
  // relative: screen-reader-only headers (position: absolute) stay inside the scroll box.
  // @container: messages take the box's visible width (cqw) however wide the table scrolls.
  return (
    <div className="relative">
      <div
        ref={scroll.ref}
        data-table-scroller=""
        // A box that scrolls sideways is reached by keyboard too (the arrow keys scroll it),
        // even when none of its rows holds a button.
        {...(scroll.scrolls && { tabIndex: 0, role: "region", "aria-label": `${caption}, scrolls sideways` })}
        className="@container relative overflow-x-auto rounded-lg border border-slate-200 bg-surface focus-visible:outline-2 focus-visible:outline-brand max-sm:overflow-visible max-sm:border-0 max-sm:bg-transparent"
      >
        <table className="w-full text-left text-sm tabular-nums max-sm:block">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-surface-raised text-xs uppercase tracking-wide text-ink-muted max-sm:hidden">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const meta = header.column.columnDef.meta;
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      title={header.column.getCanSort() ? undefined : meta?.sortHint}
                      className={`bg-surface-raised px-2.5 py-2 font-semibold whitespace-nowrap ${meta?.align === "right" ? "text-right" : ""} ${stickyClass(meta?.sticky)} ${meta?.width ?? ""}`}
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                    >
                      {header.column.getCanSort() ? (
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className="inline-flex items-center gap-1 uppercase hover:text-ink"
                        >
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          <span aria-hidden>{sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}</span>
                        </button>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-slate-100 max-sm:block max-sm:space-y-3 max-sm:divide-y-0">
            {error ? (
              <MessageRow width={width} rows={placeholderRows}>
                {error}
              </MessageRow>
            ) : loading && !data ? (
              Array.from({ length: placeholderRows }, (_, i) => (
                <tr key={i} aria-hidden className="max-sm:block">
                  <td colSpan={width} className="px-3 py-2 max-sm:block">
                    <div className="h-5 animate-pulse rounded bg-surface-sunken" />
                  </td>
                </tr>
              ))
            ) : table.getRowModel().rows.length === 0 ? (
              <MessageRow width={width} rows={placeholderRows}>
                <span className="text-ink-muted">{empty}</span>
              </MessageRow>
            ) : (
              table.getRowModel().rows.map((row) => (
                <RowWithSubRows key={row.id} rowKey={row.id} sub={renderSubRows?.(row.original)}>
                  {row.getVisibleCells().map((cell) => {
                    const meta = cell.column.columnDef.meta;
                    const header = cell.column.columnDef.header;
                    const label = meta?.label ?? (typeof header === "string" ? header : "");
                    return (
                      <td
                        key={cell.id}
                        {...meta?.cellAttributes?.(row.original)}
                        data-label={label}
                        className={`px-2.5 py-2 align-top whitespace-nowrap ${meta?.align === "right" ? "text-right" : ""} ${stickyClass(meta?.sticky)} ${meta?.sticky ? "bg-inherit" : ""} ${meta?.width ?? ""} ${label ? CARD_CELL : CARD_CELL_UNLABELLED}`}
                      >
                        {/* One box, so a value of several parts stays together beside its label on a phone. */}
                        <div>{renderCell(cell.column.columnDef.cell, cell.getContext())}</div>
                      </td>
                    );
                  })}
                </RowWithSubRows>
              ))
            )}
          </tbody>
        </table>
      </div>
      {scroll.hint}
    </div>
  );
}

/**
 * Sticky cells have a hairline on the side the other columns scroll under; body cells take the
 * row's opaque background (its hover colour included), headers have their own.
 */
const stickyClass = (side: "left" | "right" | undefined): string =>
  side === "left"
    ? "sm:sticky sm:left-0 sm:z-10 sm:shadow-[inset_-1px_0_0_var(--color-slate-200)]"
    : side === "right"
      ? "sm:sticky sm:right-0 sm:z-10 sm:shadow-[inset_1px_0_0_var(--color-slate-200)]"
      : "";

/** A cell on a phone: its label (the header, from data-label) on the left, the value on the right. */
const CARD_CELL =
  "max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-3 max-sm:px-0 max-sm:py-1 max-sm:text-right max-sm:whitespace-normal max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-xs max-sm:before:text-ink-muted max-sm:before:content-[attr(data-label)]";
/** A cell with no label (the row's identity heading its card, its action): the value alone, on the left. */
const CARD_CELL_UNLABELLED = "max-sm:block max-sm:px-0 max-sm:py-1 max-sm:text-left max-sm:whitespace-normal";

/**
 * A cell renderer called as a plain function, not mounted as a component (flexRender's way):
 * columns that close over lookups are rebuilt when those change, and a new function would be
 * a new component type, remounting every cell and losing focus and state (an open confirm).
 * Cell renderers therefore must not call hooks; they render components that do.
 */
function renderCell<T>(cell: ColumnDef<T, unknown>["cell"], context: CellContext<T, unknown>): ReactNode {
  return typeof cell === "function" ? cell(context) : (cell ?? null);
}

/** Height of a placeholder row with its border, so a message fills the same space as the loading rows. */
const ROW_PX = 37;

/** The error or empty message: as tall as the loading rows, kept in view while the table scrolls sideways. */
function MessageRow({ width, rows, children }: { width: number; rows: number; children: ReactNode }) {
  return (
    <tr className="max-sm:block">
      <td colSpan={width} className="p-0 max-sm:block">
        <div
          className="sticky left-0 flex w-[100cqw] flex-col items-center justify-center px-3 py-6 text-center whitespace-normal"
          style={{ minHeight: rows * ROW_PX - 1 }}
        >
          {children}
        </div>
      </td>
    </tr>
  );
}

/** A record's row (`data-row` holds its key) and the rows under it. */
function RowWithSubRows({ rowKey, children, sub }: { rowKey: string; children: ReactNode; sub?: ReactNode }) {
  return (
    <>
      <tr
        data-row={rowKey}
        className="bg-surface hover:bg-surface-raised max-sm:block max-sm:rounded-lg max-sm:border max-sm:border-slate-200 max-sm:px-3 max-sm:py-2"
      >
        {children}
      </tr>
      {sub}
    </>
  );
}

/**
 * A row under a row (an order's details, a transfer's legs): one cell across the table, hidden
 * while its row is closed; on a phone it sits under its card.
 */
export function SubRow({
  id,
  hidden,
  width,
  children,
}: {
  id: string;
  hidden: boolean;
  width: number;
  children: ReactNode;
}) {
  return (
    <tr
      id={id}
      hidden={hidden}
      className="bg-surface-raised text-xs max-sm:-mt-2 max-sm:block max-sm:rounded-b-lg max-sm:border max-sm:border-t-0 max-sm:border-slate-200"
    >
      <td colSpan={width} className="p-0 max-sm:block">
        {/* Kept in the scroll box's visible width, like the messages, however far the table scrolls. */}
        <div className="px-3 py-1.5 sm:sticky sm:left-0 sm:max-w-[100cqw]">{children}</div>
      </td>
    </tr>
  );
}
