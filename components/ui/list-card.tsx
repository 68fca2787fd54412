"use client";

import type { ColumnDef } from "@tanstack/react-table";
import type { ReactNode } from "react";
import type { ListPageState } from "@/lib/client/list-page";
import { Card } from "./card";
import { DataTable } from "./data-table";
import { FilterBar } from "./filter-bar";
import { Pager } from "./pager";
import { TableActions } from "./table-actions";
import { FetchShade, TableMessage, tableStateOf } from "./table-message";

/**
 * The shell every list page shares: a card with the live indicator and Export CSV, the filter
 * toolbar, the table (dimmed while the next page loads), and Previous/Next with what the page
 * holds. What differs from table to table is passed in: its filters, columns and words.
 */
export function ListCard<Row>({
  title,
  list,
  exportPath,
  exportFilters = list.query,
  actions,
  filterLabel,
  filters,
  above,
  caption,
  columns,
  what,
  empty,
  rowKey,
  renderSubRows,
  pagerLabel,
}: {
  title: string;
  list: ListPageState<Row>;
  exportPath: string;
  exportFilters?: Record<string, string | undefined>;
  /** More header actions, before Export CSV. */
  actions?: ReactNode;
  filterLabel: string;
  /** The filter controls, in the toolbar's order. */
  filters: ReactNode;
  /** Between the filters and the table: a problem, a column choice. */
  above?: ReactNode;
  caption: string;
  columns: ColumnDef<Row, unknown>[];
  /** What the table lists, for "Could not load …". */
  what: string;
  /** The empty table's words: with filters set, and with none. */
  empty: { filtered: string; none: string; read?: string };
  rowKey: (row: Row) => string;
  renderSubRows?: (row: Row) => ReactNode;
  pagerLabel: string;
}) {
  const { data } = list;
  return (
    <Card
      title={title}
      actions={
        <div className="flex flex-wrap items-center gap-3">
          {actions}
          <TableActions live={list.live} pushed={list.pushed} exportPath={exportPath} filters={exportFilters} />
        </div>
      }
    >
      <FilterBar label={filterLabel} active={list.active} onClear={list.clear}>
        {filters}
      </FilterBar>
      {above}
      <FetchShade query={list.list}>
        <DataTable
          caption={caption}
          columns={columns}
          data={list.rows}
          {...tableStateOf(list.list, what)}
          empty={
            <TableMessage>
              {!list.active
                ? empty.none
                : data?.truncated
                  ? `No match among the ${(data.scanned ?? 0).toLocaleString("en-US")} ${empty.read ?? what} read; Next reads on.`
                  : empty.filtered}
            </TableMessage>
          }
          rowKey={rowKey}
          renderSubRows={renderSubRows}
          sorting={list.sorting}
          placeholderRows={10}
        />
      </FetchShade>
      <Pager label={pagerLabel} {...list.pager} />
    </Card>
  );
}

/** "Show technical columns": the service's exact values and ids, kept in the URL (`tech=1`). */
export function TechnicalToggle({ list, hint }: { list: ListPageState<unknown>; hint: string }) {
  const filters = list.filters as Record<string, string>;
  return (
    <label className="mb-3 inline-flex items-center gap-2 text-sm text-ink-muted">
      <input
        type="checkbox"
        checked={filters.tech === "1"}
        onChange={(e) => list.update({ tech: e.target.checked ? "1" : "" })}
        className="size-4"
      />
      Show technical columns ({hint})
    </label>
  );
}
