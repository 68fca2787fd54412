"use client";

import { DateRangeFilter } from "@/components/ui/date-range-filter";
import { FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { ListCard } from "@/components/ui/list-card";
import { api, query } from "@/lib/client/api";
import { useListPage, type ListQuery } from "@/lib/client/list-page";
import {
  AUDIT_ACTION_WORDS,
  AUDIT_ACTIONS,
  AUDIT_EVENT_FILTERS,
  AUDIT_FAMILIES,
  type AuditEntryView,
} from "@/lib/audit-events";
import type { Page } from "@/lib/lists";
import { AUDIT_COLUMNS } from "./columns";
import { VerifyChain } from "./verify-chain";

const PAGE_SIZE = 50;
const FILTERS = {
  event: AUDIT_EVENT_FILTERS,
  user: null,
  from: null,
  to: null,
} as const;
/**
 * Families first (every event of a kind), then each event on its own. An event named like its
 * family ("sign-in") is the family's value already, which takes the family's every event.
 */
const EVENTS = [
  ...Object.entries(AUDIT_FAMILIES).map(([value, label]) => ({ value, label: `${label} (all)` })),
  ...AUDIT_ACTIONS.filter((a) => !(a in AUDIT_FAMILIES)).map((a) => ({ value: a, label: AUDIT_ACTION_WORDS[a] })),
];

const SPEC = {
  filters: FILTERS,
  query: ({ event, user }: Record<keyof typeof FILTERS, string>) => ({ event, user }),
  typed: "user",
  queryKey: (q: object) => ["audit", q],
  fetchPage: (q: ListQuery, cursor: string | undefined, signal: AbortSignal) =>
    api<Page<AuditEntryView>>(`/api/audit${query({ ...q, limit: String(PAGE_SIZE), cursor })}`, { signal }),
  noun: ["event", "events"],
} as const;

/**
 * The audit trail for an admin: every sign-in, create, approval, cancel, policy change and
 * export, filtered by event, user and days, exported as CSV, and its hash chain verified.
 */
export function AuditTable() {
  const list = useListPage<keyof typeof FILTERS, Page<AuditEntryView>>(SPEC);
  const [userText, setUserText] = list.typed;
  return (
    <ListCard
      title="Audit trail"
      list={list}
      actions={<VerifyChain />}
      exportPath="/api/audit/export.csv"
      filterLabel="Filter the audit trail"
      filters={
        <>
          <FilterSelect
            label="Event"
            value={list.filters.event}
            onChange={(v) => list.update({ event: v })}
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
          <DateRangeFilter from={list.filters.from} to={list.filters.to} onChange={list.update} />
        </>
      }
      caption="Audit trail: every event, newest first"
      columns={AUDIT_COLUMNS}
      what="the audit trail"
      empty={{ filtered: "Nothing matches these filters.", none: "No events yet." }}
      rowKey={(e) => String(e.seq)}
      pagerLabel="Audit trail pages"
    />
  );
}
