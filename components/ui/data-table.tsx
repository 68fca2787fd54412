"use client";

import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from "@tanstack/react-table";
import { useState, type ReactNode } from "react";

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
export function DataTable<T>({ caption, columns, data, loading, error, empty, rowKey, renderSubRows, placeholderRows = 8 }: Props<T>) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useReactTable({
    data: data ?? [],
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: rowKey,
  });
  const width = columns.length;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-surface">
      <table className="w-full text-left text-sm tabular-nums">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-surface-raised text-xs uppercase tracking-wide text-ink-muted">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className="px-3 py-2 font-semibold whitespace-nowrap"
                    aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <button type="button" onClick={header.column.getToggleSortingHandler()} className="inline-flex items-center gap-1 uppercase hover:text-ink">
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
            <tr>
              <td colSpan={width} className="px-3 py-8 text-center">
                {error}
              </td>
            </tr>
          ) : loading && !data ? (
            Array.from({ length: placeholderRows }, (_, i) => (
              <tr key={i} aria-hidden>
                <td colSpan={width} className="px-3 py-2">
                  <div className="h-5 animate-pulse rounded bg-surface-sunken" />
                </td>
              </tr>
            ))
          ) : table.getRowModel().rows.length === 0 ? (
            <tr>
              <td colSpan={width} className="px-3 py-8 text-center text-ink-muted">
                {empty}
              </td>
            </tr>
          ) : (
            table.getRowModel().rows.map((row) => (
              <RowWithSubRows key={row.id} sub={renderSubRows?.(row.original)}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className="px-3 py-2 whitespace-nowrap">
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
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

function RowWithSubRows({ children, sub }: { children: ReactNode; sub?: ReactNode }) {
  return (
    <>
      <tr className="hover:bg-surface-raised">{children}</tr>
      {sub}
    </>
  );
}
