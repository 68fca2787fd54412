"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useEffect, useMemo, useState } from "react";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { LiveIndicator, refreshEvery } from "@/components/ui/live-indicator";
import { Pager, useCursorPager } from "@/components/ui/pager";
import { StatusBadge } from "@/components/ui/status-badge";
import { SubmitterCell } from "@/components/ui/submitter-cell";
import { TableError, TableMessage } from "@/components/ui/table-message";
import { api, query } from "@/lib/client/api";
import { Time } from "@/lib/client/time-zone";
import { useProfileNames } from "@/lib/client/profile-names";
import { keys } from "@/lib/client/queries";
import type { JournalEntry } from "@/lib/journal";
import { timeSorting } from "@/lib/client/sorting";

const PAGE_SIZE = 25;
const EMPTY_FILTERS = { kind: "", status: "", user: "" };
const KINDS = [
  { value: "order", label: "Order" },
  { value: "transfer", label: "Transfer" },
];
const STATUSES = [
  { value: "pending", label: "Pending" },
  { value: "succeeded", label: "Succeeded" },
  { value: "failed", label: "Failed" },
];

interface JournalPage {
  items: JournalEntry[];
  next_cursor: string | null;
}

/** The journal: every create sent from the dashboard, who sent it and what the service answered. */
export function ActivityTable() {
  const [filters, setFilters] = useState(EMPTY_FILTERS);
  // The user filter matches an email exactly: wait for the typing to pause before asking.
  const user = useDebounced(filters.user.trim(), 400);
  const serverFilters = { kind: filters.kind, status: filters.status, user };
  const pager = useCursorPager(JSON.stringify(serverFilters));
  const { nickname } = useProfileNames();

  const activity = useQuery({
    queryKey: keys.activity({ ...serverFilters, cursor: pager.cursor ?? "" }),
    queryFn: ({ signal }) =>
      api<JournalPage>(
        `/api/activity${query({
          kind: serverFilters.kind || undefined,
          status: serverFilters.status || undefined,
          user: serverFilters.user || undefined,
          limit: String(PAGE_SIZE),
          cursor: pager.cursor,
        })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => refreshEvery(anyPending(q.state.data?.items)),
  });
  const rows = activity.data?.items;

  // Emails seen so far, offered as suggestions for the exact-match user filter.
  const [seenUsers, setSeenUsers] = useState<readonly string[]>([]);
  const pageUsers = useMemo(() => [...new Set((rows ?? []).map((e) => e.user_email))], [rows]);
  if (pageUsers.some((u) => !seenUsers.includes(u))) setSeenUsers([...new Set([...seenUsers, ...pageUsers])].sort());

  const columns = useMemo<ColumnDef<JournalEntry, unknown>[]>(
    () => [
      {
        id: "created_at",
        header: "Time",
        accessorFn: (e) => e.created_at,
        sortingFn: timeSorting,
        cell: ({ row }) => <Time iso={row.original.created_at} />,
      },
      {
        id: "user",
        header: "Who",
        accessorFn: (e) => e.user_email,
        cell: ({ row }) => <SubmitterCell entry={row.original} loading={false} />,
      },
      {
        id: "kind",
        header: "Kind",
        accessorFn: (e) => e.kind,
        cell: ({ row }) => <span className="capitalize">{row.original.kind}</span>,
      },
      {
        id: "profile",
        header: "Profile",
        accessorFn: (e) => nickname(e.profile_id) + (e.to_profile_id ? ` → ${nickname(e.to_profile_id)}` : ""),
      },
      {
        id: "status",
        header: "Status",
        accessorFn: (e) => e.status,
        cell: ({ row }) => <StatusBadge status={row.original.status} />,
      },
      {
        id: "http_status",
        header: "HTTP",
        accessorFn: (e) => e.http_status ?? -1,
        meta: { align: "right" },
        cell: ({ row }) => row.original.http_status ?? "—",
      },
      {
        id: "latency",
        header: "Latency",
        accessorFn: (e) => e.latency_ms ?? -1,
        meta: { align: "right" },
        cell: ({ row }) => (row.original.latency_ms === null ? "—" : `${row.original.latency_ms} ms`),
      },
      {
        id: "problem",
        header: "Problem",
        accessorFn: (e) => e.problem?.title ?? "",
        enableSorting: false,
        cell: ({ row }) =>
          row.original.problem ? (
            <div className="min-w-56 max-w-md whitespace-normal text-sell">
              <span className="font-semibold">{row.original.problem.title}</span>
              {row.original.problem.detail && <span className="block text-xs">{row.original.problem.detail}</span>}
            </div>
          ) : (
            ""
          ),
      },
      {
        id: "ref_id",
        header: "Ref ID",
        accessorFn: (e) => e.ref_id,
        cell: ({ row }) => <span className="font-mono text-xs">{row.original.ref_id}</span>,
      },
      {
        id: "result_id",
        header: "Result ID",
        accessorFn: (e) => e.result_id ?? "",
        enableSorting: false,
        cell: ({ row }) =>
          row.original.result_id ? (
            <Truncated text={row.original.result_id} className="max-w-24 font-mono text-xs text-ink-muted" />
          ) : (
            "—"
          ),
      },
    ],
    [nickname],
  );

  const anyFilter = Object.values(filters).some(Boolean);
  const set = (k: keyof typeof EMPTY_FILTERS) => (v: string) => setFilters((f) => ({ ...f, [k]: v }));

  return (
    <Card title="Activity" actions={<LiveIndicator live={anyPending(rows)} />}>
      <FilterBar label="Filter activity" active={anyFilter} onClear={() => setFilters(EMPTY_FILTERS)}>
        <FilterSelect label="Kind" value={filters.kind} onChange={set("kind")} options={KINDS} className="w-32" />
        <FilterSelect
          label="Status"
          value={filters.status}
          onChange={set("status")}
          options={STATUSES}
          className="w-36"
        />
        <FilterInput
          label="User (email)"
          type="email"
          value={filters.user}
          onChange={set("user")}
          suggestions={seenUsers}
          placeholder="name@example.com"
          className="w-64"
        />
      </FilterBar>
      <div
        aria-busy={activity.isFetching}
        className={activity.isPlaceholderData ? "opacity-60 transition-opacity" : ""}
      >
        <DataTable
          caption="Activity: requests sent from the dashboard"
          columns={columns}
          data={rows}
          loading={activity.isPending}
          error={
            activity.isError && !activity.data ? (
              <TableError error={activity.error} what="the activity" onRetry={() => activity.refetch()} />
            ) : undefined
          }
          empty={
            <TableMessage>
              {anyFilter
                ? "Nothing matches these filters. The user filter needs the full email."
                : "No activity yet. Orders and transfers sent from the dashboard appear here."}
            </TableMessage>
          }
          rowKey={(e) => e.id}
          placeholderRows={10}
        />
      </div>
      <Pager
        label="Activity pages"
        page={pager.page}
        hasPrevious={pager.hasPrevious}
        hasNext={Boolean(activity.data?.next_cursor)}
        onPrevious={pager.previous}
        onNext={() => pager.next(activity.data?.next_cursor)}
        busy={activity.isFetching && activity.isPlaceholderData}
        summary={rows ? `${rows.length} ${rows.length === 1 ? "entry" : "entries"}` : undefined}
      />
    </Card>
  );
}

const anyPending = (entries: readonly JournalEntry[] | undefined): boolean =>
  Boolean(entries?.some((e) => e.status === "pending"));

function Truncated({ text, className }: { text: string; className: string }) {
  return (
    <span className={`block truncate ${className}`} title={text}>
      {text}
    </span>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
