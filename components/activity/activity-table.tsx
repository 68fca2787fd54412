"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { DateRangeFilter, useDayRange } from "@/components/ui/date-range-filter";
import { FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { refreshEvery } from "@/components/ui/live-indicator";
import { Pager, useCursorPager } from "@/components/ui/pager";
import { StatusBadge } from "@/components/ui/status-badge";
import { SubmitterCell } from "@/components/ui/submitter-cell";
import { TableActions } from "@/components/ui/table-actions";
import { FetchShade, TableMessage, tableStateOf } from "@/components/ui/table-message";
import { ACTION_WORDS, askedOf, describeAsked, outcomeOf } from "@/lib/shared/activity-rows";
import { api, query } from "@/lib/client/api";
import { listSummary } from "@/lib/shared/list-summary";
import { useProfileNames } from "@/lib/client/profile-names";
import { keys } from "@/lib/client/queries";
import { Time } from "@/lib/client/time-zone";
import { useTypedFilter } from "@/lib/client/typed-filter";
import { useUrlFilters, type FilterSpec } from "@/lib/client/url-filters";
import type { JournalEntry } from "@/lib/shared/journal-entry";

const PAGE_SIZE = 25;
const FILTERS = {
  kind: ["order", "transfer", "cancel"],
  status: ["pending", "succeeded", "failed"],
  user: null,
  from: null,
  to: null,
  /** "1" shows the developer's columns. */
  tech: ["1"],
} as const satisfies FilterSpec<string>;
const KINDS = (["order", "transfer", "cancel"] as const).map((k) => ({ value: k, label: ACTION_WORDS[k] }));
const STATUSES = [
  { value: "pending", label: "Pending" },
  { value: "succeeded", label: "Succeeded" },
  { value: "failed", label: "Failed" },
];

interface JournalPage {
  items: JournalEntry[];
  next_cursor: string | null;
}

/**
 * The journal for an auditor: every create and cancel sent from the dashboard, who asked,
 * what they asked for, and what came of it. HTTP status and latency are for developers, behind
 * "Show technical columns".
 */
export function ActivityTable() {
  const { filters, update, clear, active } = useUrlFilters(FILTERS);
  const [userText, setUserText] = useTypedFilter(filters.user, (user) => update({ user }));
  const listQuery = {
    kind: filters.kind || undefined,
    status: filters.status || undefined,
    user: filters.user || undefined,
    ...useDayRange(filters.from, filters.to),
  };
  const pager = useCursorPager(JSON.stringify(listQuery));
  const { nickname } = useProfileNames();

  const activity = useQuery({
    queryKey: keys.activity({ ...listQuery, cursor: pager.cursor ?? "" }),
    queryFn: ({ signal }) =>
      api<JournalPage>(`/api/activity${query({ ...listQuery, limit: String(PAGE_SIZE), cursor: pager.cursor })}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => refreshEvery(anyPending(q.state.data?.items)),
  });
  const rows = activity.data?.items;

  // Emails seen so far, offered as suggestions for the user filter.
  const [seenUsers, setSeenUsers] = useState<readonly string[]>([]);
  const pageUsers = useMemo(() => [...new Set((rows ?? []).map((e) => e.user_email))], [rows]);
  if (pageUsers.some((u) => !seenUsers.includes(u))) setSeenUsers([...new Set([...seenUsers, ...pageUsers])].sort());

  const technical = filters.tech === "1";
  const columns = useMemo<ColumnDef<JournalEntry, unknown>[]>(() => {
    const cols: ColumnDef<JournalEntry, unknown>[] = [
      {
        id: "when_who",
        header: "Time and who",
        meta: { sticky: "left", label: "", sortHint: "Newest first" },
        cell: ({ row }) => (
          <div className="leading-tight">
            <Time iso={row.original.created_at} />
            <div className="text-xs">
              <SubmitterCell entry={row.original} loading={false} />
            </div>
          </div>
        ),
      },
      {
        id: "action",
        header: "Action",
        cell: ({ row }) => ACTION_WORDS[row.original.kind] ?? row.original.kind,
      },
      {
        id: "profile",
        header: "Profile",
        cell: ({ row }) =>
          nickname(row.original.profile_id) +
          (row.original.to_profile_id ? ` → ${nickname(row.original.to_profile_id)}` : ""),
      },
      {
        id: "asked",
        header: "What was asked",
        cell: ({ row }) => <Asked entry={row.original} />,
      },
      {
        id: "outcome",
        header: "Outcome",
        cell: ({ row }) => <Outcome entry={row.original} />,
      },
    ];
    if (technical) cols.push(...TECHNICAL_COLUMNS);
    return cols;
  }, [nickname, technical]);

  return (
    <Card
      title="Activity"
      actions={<TableActions live={anyPending(rows)} exportPath="/api/activity/export.csv" filters={listQuery} />}
    >
      <FilterBar
        label="Filter activity"
        active={active || userText !== ""}
        onClear={() => {
          setUserText("");
          clear();
        }}
      >
        <FilterInput
          label="User"
          type="search"
          value={userText}
          onChange={setUserText}
          suggestions={seenUsers}
          placeholder="any part of the email"
          className="w-56"
          primary
        />
        <FilterSelect
          label="Action"
          value={filters.kind}
          onChange={(v) => update({ kind: v })}
          options={KINDS}
          className="w-32"
        />
        <FilterSelect
          label="Status"
          value={filters.status}
          onChange={(v) => update({ status: v })}
          options={STATUSES}
          className="w-36"
        />
        <DateRangeFilter from={filters.from} to={filters.to} onChange={update} />
      </FilterBar>
      <label className="mb-3 inline-flex items-center gap-2 text-sm text-ink-muted">
        <input
          type="checkbox"
          checked={technical}
          onChange={(e) => update({ tech: e.target.checked ? "1" : "" })}
          className="size-4"
        />
        Show technical columns (HTTP status, latency, ids)
      </label>
      <FetchShade query={activity}>
        <DataTable
          caption="Activity: requests sent from the dashboard"
          columns={columns}
          data={rows}
          {...tableStateOf(activity, "the activity")}
          empty={
            <TableMessage>
              {active
                ? "Nothing matches these filters."
                : "No activity yet. Orders, cancels and transfers sent from the dashboard appear here."}
            </TableMessage>
          }
          rowKey={(e) => e.id}
          placeholderRows={10}
        />
      </FetchShade>
      <Pager
        label="Activity pages"
        page={pager.page}
        hasPrevious={pager.hasPrevious}
        hasNext={Boolean(activity.data?.next_cursor)}
        onPrevious={pager.previous}
        onNext={() => pager.next(activity.data?.next_cursor)}
        busy={activity.isFetching && activity.isPlaceholderData}
        summary={
          rows &&
          listSummary({ shown: rows.length, noun: ["entry", "entries"], hasNext: Boolean(activity.data?.next_cursor) })
        }
      />
    </Card>
  );
}

/** The developer's view of an entry: the HTTP answer, how long it took, the ids to grep for. */
const TECHNICAL_COLUMNS: ColumnDef<JournalEntry, unknown>[] = [
  {
    id: "http_status",
    header: "HTTP",
    meta: { align: "right" },
    cell: ({ row }) => row.original.http_status ?? "—",
  },
  {
    id: "latency",
    header: "Latency",
    meta: { align: "right" },
    cell: ({ row }) => (row.original.latency_ms === null ? "—" : `${row.original.latency_ms} ms`),
  },
  {
    id: "ref_id",
    header: "Ref ID",
    cell: ({ row }) => <span className="font-mono text-xs">{row.original.ref_id}</span>,
  },
  {
    id: "result_id",
    header: "Result ID",
    cell: ({ row }) =>
      row.original.result_id ? (
        <span className="block max-w-24 truncate font-mono text-xs text-ink-muted" title={row.original.result_id}>
          {row.original.result_id}
        </span>
      ) : (
        "—"
      ),
  },
];

function Asked({ entry }: { entry: JournalEntry }) {
  const asked = askedOf(entry);
  const words = describeAsked(asked);
  if (entry.kind !== "cancel") return <>{words || "—"}</>;
  return (
    <>
      Cancel order{" "}
      <span className="font-mono text-xs" title={asked.order_id}>
        {asked.order_id.slice(0, 8)}
      </span>
      {words ? <span className="block text-xs text-ink-muted">{words}</span> : null}
    </>
  );
}

function Outcome({ entry }: { entry: JournalEntry }) {
  return (
    <div className="min-w-40 max-w-md whitespace-normal">
      <span className="inline-flex items-center gap-1.5">
        <StatusBadge status={entry.status} />
        <span className={entry.status === "failed" ? "font-semibold text-sell" : ""}>{outcomeOf(entry)}</span>
      </span>
      {entry.problem?.detail && <span className="block text-xs text-sell">{entry.problem.detail}</span>}
    </div>
  );
}

const anyPending = (entries: readonly JournalEntry[] | undefined): boolean =>
  Boolean(entries?.some((e) => e.status === "pending"));
