"use client";

import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type CellContext,
  type ColumnDef,
  type RowData,
  type SortingState,
} from "@tanstack/react-table";
import { useMemo, useState, type ReactNode } from "react";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the generics must match the library's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Numbers line up on the right, header and cells alike. */
    align?: "right";
  }
}

interface Props<T> {
  caption: string;
  columns: ColumnDef<T, unknown>[];
  data: T[] | undefined;
  loading: boolean;
  error?: ReactNode;
  empty: ReactNode;
  rowKey: (row: T) => string;
  /** Extra rows under a row (the legs of a transfer). */
  renderSubRows?: (row: T) => ReactNode;
  /** Rows shown while loading, so the page does not jump when data arrives. */
  placeholderRows?: number;
}

/** A sortable table with loading, empty and error states that keep their height. */
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
}: Props<T>) {
  const [sorting, setSorting] = useState<SortingState>([]);
  // The table caches each row's values until `data` changes; accessors that read lookups
  // (profile nicknames, the journal) come with new columns, so new columns rebuild the rows.
  const rows = useMemo(() => (data ? [...data] : []), [data, columns]); // eslint-disable-line react-hooks/exhaustive-deps
  // The table instance is rebuilt every render by design; the React Compiler just skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: rowKey,
  });
  const width = columns.length;
  // relative: screen-reader-only headers (position: absolute) stay inside the scroll box.
  // @container: messages take the box's visible width (cqw) however wide the table scrolls.
  return (
    <div className="@container relative overflow-x-auto rounded-lg border border-slate-200 bg-surface">
      <table className="w-full text-left text-sm tabular-nums">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-surface-raised text-xs uppercase tracking-wide text-ink-muted">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const right = header.column.columnDef.meta?.align === "right";
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={`px-3 py-2 font-semibold whitespace-nowrap ${right ? "text-right" : ""}`}
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
        <tbody className="divide-y divide-slate-100">
          {error ? (
            <MessageRow width={width} rows={placeholderRows}>
              {error}
            </MessageRow>
          ) : loading && !data ? (
            Array.from({ length: placeholderRows }, (_, i) => (
              <tr key={i} aria-hidden>
                <td colSpan={width} className="px-3 py-2">
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
              <RowWithSubRows key={row.id} sub={renderSubRows?.(row.original)}>
                {row.getVisibleCells().map((cell) => (
                  <td
                    key={cell.id}
                    className={`px-3 py-2 whitespace-nowrap ${cell.column.columnDef.meta?.align === "right" ? "text-right" : ""}`}
                  >
                    {renderCell(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </RowWithSubRows>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

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
    <tr>
      <td colSpan={width} className="p-0">
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

function RowWithSubRows({ children, sub }: { children: ReactNode; sub?: ReactNode }) {
  return (
    <>
      <tr className="hover:bg-surface-raised">{children}</tr>
      {sub}
    </>
  );
}
