"use client";

import { useMemo, useState } from "react";
import { DateRangeFilter } from "@/components/ui/date-range-filter";
import { FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { ListCard, TechnicalToggle } from "@/components/ui/list-card";
import { ACTION_WORDS } from "@/lib/client/activity-rows";
import { api, query } from "@/lib/client/api";
import { useListPage, type ListQuery } from "@/lib/client/list-page";
import { useProfileNames } from "@/lib/client/profile-names";
import { keys } from "@/lib/client/queries";
import type { JournalEntry } from "@/lib/journal";
import type { Page } from "@/lib/lists";
import { ACTIVITY_TECHNICAL_COLUMNS, activityColumns } from "./columns";

const PAGE_SIZE = 25;
const FILTERS = {
  kind: ["order", "transfer", "cancel"],
  status: ["pending", "succeeded", "failed"],
  user: null,
  from: null,
  to: null,
  /** "1" shows the developer's columns. */
  tech: ["1"],
} as const;
const KINDS = (["order", "transfer", "cancel"] as const).map((k) => ({ value: k, label: ACTION_WORDS[k] }));
const STATUSES = [
  { value: "pending", label: "Waiting for the service" },
  { value: "succeeded", label: "Accepted" },
  { value: "failed", label: "Failed" },
];

const SPEC = {
  filters: FILTERS,
  query: ({ kind, status, user }: Record<keyof typeof FILTERS, string>) => ({ kind, status, user }),
  typed: "user",
  queryKey: keys.activity,
  fetchPage: (q: ListQuery, cursor: string | undefined, signal: AbortSignal) =>
    api<Page<JournalEntry>>(`/api/activity${query({ ...q, limit: String(PAGE_SIZE), cursor })}`, { signal }),
  // The journal is not streamed: it polls, faster while a request waits for the service.
  live: (page: Page<JournalEntry> | undefined) => Boolean(page?.items.some((e) => e.status === "pending")),
  noun: ["entry", "entries"],
} as const;

/**
 * The journal for an auditor: every create and cancel sent from the dashboard, who asked,
 * what they asked for, and what came of it. HTTP status and latency are for developers, behind
 * "Show technical columns".
 */
export function ActivityTable() {
  const list = useListPage<keyof typeof FILTERS, Page<JournalEntry>>(SPEC);
  const { filters, update, rows } = list;
  const [userText, setUserText] = list.typed;
  const { nickname } = useProfileNames();

  // Emails seen so far, offered as suggestions for the user filter.
  const [seenUsers, setSeenUsers] = useState<readonly string[]>([]);
  const pageUsers = useMemo(() => [...new Set((rows ?? []).map((e) => e.user_email))], [rows]);
  if (pageUsers.some((u) => !seenUsers.includes(u))) setSeenUsers([...new Set([...seenUsers, ...pageUsers])].sort());

  const technical = filters.tech === "1";
  const columns = useMemo(
    () => [...activityColumns(nickname), ...(technical ? ACTIVITY_TECHNICAL_COLUMNS : [])],
    [nickname, technical],
  );

  return (
    <ListCard
      title="Activity"
      list={list}
      exportPath="/api/activity/export.csv"
      filterLabel="Filter activity"
      filters={
        <>
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
        </>
      }
      above={<TechnicalToggle list={list} hint="HTTP status, latency, status codes, ids" />}
      caption="Activity: requests sent from the dashboard"
      columns={columns}
      what="the activity"
      empty={{
        filtered: "Nothing matches these filters.",
        none: "No activity yet. Orders, cancels and transfers sent from the dashboard appear here.",
      }}
      rowKey={(e) => e.id}
      pagerLabel="Activity pages"
    />
  );
}
