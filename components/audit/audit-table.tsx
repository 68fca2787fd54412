"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { DateRangeFilter, useDayRange } from "@/components/ui/date-range-filter";
import { FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { Pager, useCursorPager } from "@/components/ui/pager";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { TableActions } from "@/components/ui/table-actions";
import { AuditDetails } from "./audit-details";
import { FetchShade, TableMessage, tableStateOf } from "@/components/ui/table-message";
import { api, problemOf, query } from "@/lib/client/api";
import { listSummary } from "@/lib/shared/list-summary";
import { Time } from "@/lib/client/time-zone";
import { useTypedFilter } from "@/lib/client/typed-filter";
import { useUrlFilters, type FilterSpec } from "@/lib/client/url-filters";
import {
  AUDIT_ACTION_WORDS,
  AUDIT_ACTIONS,
  AUDIT_EVENT_FILTERS,
  AUDIT_FAMILIES,
  type AuditEntryView,
} from "@/lib/shared/audit-events";

const PAGE_SIZE = 50;
const FILTERS = {
  event: AUDIT_EVENT_FILTERS,
  user: null,
  from: null,
  to: null,
} as const satisfies FilterSpec<string>;
/**
 * Families first (every event of a kind), then each event on its own. An event named like its
 * family ("sign-in") is the family's value already, which takes the family's every event.
 */
const EVENTS = [
  ...Object.entries(AUDIT_FAMILIES).map(([value, label]) => ({ value, label: `${label} (all)` })),
  ...AUDIT_ACTIONS.filter((a) => !(a in AUDIT_FAMILIES)).map((a) => ({ value: a, label: AUDIT_ACTION_WORDS[a] })),
];

interface AuditPage {
  items: AuditEntryView[];
  next_cursor: string | null;
}

type Verification =
  { ok: true; entries: number } | { ok: false; entries: number; broken: { seq: number; reason: string } };

/**
 * The audit trail for an admin: every sign-in, create, approval, cancel, policy change and
 * export, filtered by event, user and days, exported as CSV, and its hash chain verified.
 */
export function AuditTable() {
  const { filters, update, clear, active } = useUrlFilters(FILTERS);
  const [userText, setUserText] = useTypedFilter(filters.user, (user) => update({ user }));
  const listQuery = {
    event: filters.event || undefined,
    user: filters.user || undefined,
    ...useDayRange(filters.from, filters.to),
  };
  const pager = useCursorPager(JSON.stringify(listQuery));
  const audit = useQuery({
    queryKey: ["audit", { ...listQuery, cursor: pager.cursor ?? "" }],
    queryFn: ({ signal }) =>
      api<AuditPage>(`/api/audit${query({ ...listQuery, limit: String(PAGE_SIZE), cursor: pager.cursor })}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  const rows = audit.data?.items;
  const columns = useMemo<ColumnDef<AuditEntryView, unknown>[]>(() => COLUMNS, []);

  return (
    <Card
      title="Audit trail"
      actions={
        <div className="flex flex-wrap items-center gap-3">
          <VerifyChain />
          <TableActions exportPath="/api/audit/export.csv" filters={listQuery} />
        </div>
      }
    >
      <FilterBar
        label="Filter the audit trail"
        active={active || userText !== ""}
        onClear={() => {
          setUserText("");
          clear();
        }}
      >
        <FilterSelect
          label="Event"
          value={filters.event}
          onChange={(v) => update({ event: v })}
          options={EVENTS}
          className="w-56"
          primary
        />
        <FilterInput
          label="User"
          type="search"
          value={userText}
          onChange={setUserText}
          placeholder="any part of the email"
          className="w-56"
        />
        <DateRangeFilter from={filters.from} to={filters.to} onChange={update} />
      </FilterBar>
      <FetchShade query={audit}>
        <DataTable
          caption="Audit trail: every event, newest first"
          columns={columns}
          data={rows}
          {...tableStateOf(audit, "the audit trail")}
          empty={<TableMessage>{active ? "Nothing matches these filters." : "No events yet."}</TableMessage>}
          rowKey={(e) => String(e.seq)}
          placeholderRows={10}
        />
      </FetchShade>
      <Pager
        label="Audit trail pages"
        page={pager.page}
        hasPrevious={pager.hasPrevious}
        hasNext={Boolean(audit.data?.next_cursor)}
        onPrevious={pager.previous}
        onNext={() => pager.next(audit.data?.next_cursor)}
        busy={audit.isFetching && audit.isPlaceholderData}
        summary={
          rows &&
          listSummary({ shown: rows.length, noun: ["event", "events"], hasNext: Boolean(audit.data?.next_cursor) })
        }
      />
    </Card>
  );
}

const COLUMNS: ColumnDef<AuditEntryView, unknown>[] = [
  {
    id: "when",
    header: "Time",
    meta: { sticky: "left", label: "", sortHint: "Newest first" },
    cell: ({ row }) => (
      <div className="leading-tight">
        <Time iso={row.original.at} />
        <div className="text-xs text-ink-muted">#{row.original.seq}</div>
      </div>
    ),
  },
  {
    id: "event",
    header: "Event",
    cell: ({ row }) => (
      <span title={row.original.action} className="whitespace-nowrap">
        {AUDIT_ACTION_WORDS[row.original.action] ?? row.original.action}
      </span>
    ),
  },
  {
    id: "who",
    header: "Who",
    cell: ({ row }) =>
      row.original.actor_email ? (
        <span className="leading-tight">
          {row.original.actor_email}
          <span className="block text-xs text-ink-muted">
            {row.original.actor_role ?? "—"}
            {row.original.ip ? ` · ${row.original.ip}` : ""}
          </span>
        </span>
      ) : (
        <span className="text-ink-muted">the dashboard</span>
      ),
  },
  {
    id: "subject",
    header: "About",
    cell: ({ row }) => (
      <span className="block max-w-48 truncate font-mono text-xs" title={row.original.subject ?? undefined}>
        {row.original.subject ?? "—"}
      </span>
    ),
  },
  {
    id: "detail",
    header: "Detail",
    cell: ({ row }) => <AuditDetails detail={row.original.detail} />,
  },
];

/** GET /api/audit/verify on demand: the chain intact, or the first broken entry. */
function VerifyChain() {
  const verify = useMutation({ mutationFn: () => api<Verification>("/api/audit/verify") });
  const result = verify.data;
  return (
    <div className="flex items-center gap-2 text-sm">
      <Button variant="secondary" disabled={verify.isPending} onClick={() => verify.mutate()}>
        {verify.isPending ? "Verifying…" : "Verify chain"}
      </Button>
      <span role="status" data-testid="audit-verify">
        {result?.ok === true && (
          <span className="font-semibold text-buy">Chain intact: {result.entries} entries verified</span>
        )}
        {result?.ok === false && (
          <span className="font-semibold text-sell">
            Chain broken at entry #{result.broken.seq}: {result.broken.reason}
          </span>
        )}
      </span>
      {verify.isError && <ProblemAlert problem={problemOf(verify.error)} />}
    </div>
  );
}
