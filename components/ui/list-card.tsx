"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useMemo, type ComponentProps, type ReactNode } from "react";
import { useProfileNames } from "@/lib/client/profile-names";
import type { ListPageState } from "@/lib/client/list-page";
import { Card } from "./card";
import { DataTable } from "./data-table";
import { DateRangeFilter } from "./date-range-filter";
import { FilterBar, FilterSelect } from "./filter-bar";
import { Pager } from "./pager";
import { TableActions } from "./table-actions";
import { FetchShade, TableMessage, tableStateOf } from "./table-message";

/**
 * The shell every list page shares: a card with the live indicator and Export CSV, the filter
 * toolbar, the table (dimmed while the next page loads), and Previous/Next with what the page
 * holds. What differs from table to table is passed in: its filters, columns and words.
 */
export function ListCard<Row>({
  list,
  actions,
  filters,
  above,
  columns: own,
  renderSubRows,
  waiting = false,
}: {
  list: ListPageState<Row>;
  /** More header actions, before Export CSV. */
  actions?: ReactNode;
  /** The filter controls, in the toolbar's order; the From and To days follow where the list has them. */
  filters: ReactNode;
  /** Between the filters and the table: a problem to show. */
  above?: ReactNode;
  columns: ColumnDef<Row, unknown>[];
  /** Rows under a row; `width`: how many columns they span, the technical ones included. */
  renderSubRows?: (row: Row, width: number) => ReactNode;
  /** True while another read the rows are drawn with has not answered (the orders' parents): they wait for it. */
  waiting?: boolean;
}) {
  const { data, words } = list;
  // Rows are drawn once the profiles' names are known too: a row drawn with a profile's id and
  // redrawn with its name a moment later changes height, and moves every row under it.
  const names = useProfileNames();
  const first = list.list.isPending || names.loading || waiting;
  const days = "from" in list.filters;
  const { technical } = list;
  const shown = technical && (list.filters as Record<string, string>).tech === "1";
  const columns = useMemo(() => (shown ? [...own, ...technical.columns] : own), [own, shown, technical]);
  return (
    <Card
      title={words.title}
      actions={
        <div className="flex flex-wrap items-center gap-3">
          {actions}
          <TableActions live={list.live} pushed={list.pushed} exportPath={list.exportPath} filters={list.query} />
        </div>
      }
    >
      <FilterBar
        label={`Filter ${words.what}`}
        active={list.active}
        onClear={list.clear}
        after={technical && <TechnicalToggle list={list} hint={technical.hint} />}
      >
        {filters}
        {days && <ListDays list={list} />}
      </FilterBar>
      {above}
      <FetchShade query={list.list}>
        <DataTable
          caption={words.caption}
          columns={columns}
          data={first ? undefined : list.rows}
          {...tableStateOf(list.list, words.what)}
          loading={first}
          empty={
            <TableMessage>
              {!list.active
                ? words.empty.none
                : data?.truncated
                  ? `No match among the ${(data.scanned ?? 0).toLocaleString("en-US")} ${words.empty.read ?? words.what} read; Next reads on.`
                  : words.empty.filtered}
            </TableMessage>
          }
          rowKey={list.rowKey}
          renderSubRows={renderSubRows && ((row: Row) => renderSubRows(row, columns.length))}
          sorting={list.sorting}
          placeholderRows={10}
        />
      </FetchShade>
      {/* Drawn with the first page: a pager moved from under the loading rows to under fewer
          (or more) real ones would be a layout shift; a new element is none. */}
      {!first && <Pager label={`${words.title} pages`} {...list.pager} />}
    </Card>
  );
}

/** What a filter control needs of a list: its URL filters and how to change them. */
type Bound = Pick<ListPageState<unknown>, "filters" | "update">;

/** "Show technical columns": the service's exact values and ids, kept in the URL (`tech=1`). */
export function TechnicalToggle({ list, hint }: { list: Bound; hint: string }) {
  const filters = list.filters as Record<string, string>;
  return (
    <label className="inline-flex min-h-9 items-center gap-2 text-sm text-ink-muted">
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

/** A filter select bound to one of the list's URL filters (`name`). */
export function ListSelect({
  list,
  name,
  ...props
}: { list: Bound; name: string } & Omit<ComponentProps<typeof FilterSelect>, "value" | "onChange">) {
  const filters = list.filters as Record<string, string>;
  return <FilterSelect value={filters[name] ?? ""} onChange={(v) => list.update({ [name]: v })} {...props} />;
}

/** The From and To day filters, bound to the list's `from` and `to`. */
export function ListDays({ list }: { list: Bound }) {
  const { from = "", to = "" } = list.filters as Record<string, string>;
  return <DateRangeFilter from={from} to={to} onChange={list.update} />;
}

/** The profile filter, by nickname, bound to the list's `name` filter; "/" focuses it. */
export function ProfileSelect({ list, name }: { list: Bound; name: string }) {
  const { profiles } = useProfileNames();
  const options = profiles.map((p) => ({ value: p.id, label: p.nickname }));
  return <ListSelect list={list} name={name} label="Profile" options={options} primary />;
}
