"use client";

import { useMemo, useState } from "react";
import { FilterInput } from "@/components/ui/filter-bar";
import { ListCard, ListSelect } from "@/components/ui/list-card";
import { isSettling, STATUS_FILTER_OPTIONS, type ActivityEntry } from "@/lib/shared/activity-outcome";
import { ACTION_WORDS } from "@/lib/shared/activity-rows";
import { DAY_FILTERS, TECHNICAL_VIEW, useListPage } from "@/lib/client/list-page";
import { useProfileNames } from "@/lib/client/profile-names";
import type { Page } from "@/lib/shared/list-routes";
import { ACTIVITY_TECHNICAL_COLUMNS, activityColumns } from "./columns";

const FILTERS = {
  ...{ kind: ["order", "transfer", "cancel"], status: ["pending", "succeeded", "failed"], user: null },
  ...DAY_FILTERS,
  ...TECHNICAL_VIEW,
} as const;
const KINDS = (["order", "transfer", "cancel"] as const).map((k) => ({ value: k, label: ACTION_WORDS[k] }));

const SPEC = {
  filters: FILTERS,
  query: ({ kind, status, user }: Record<keyof typeof FILTERS, string>) => ({ kind, status, user }),
  typed: "user",
  route: "/api/activity",
  pageSize: 25,
  // The journal is not streamed: it polls, faster while a request waits for the service or a
  // record is still on its way (a post-only order the service may yet reject).
  live: (page: Page<ActivityEntry> | undefined) => Boolean(page?.items.some(isSettling)),
  noun: ["entry", "entries"],
  words: {
    title: "Activity",
    caption: "Activity: requests sent from the dashboard",
    what: "activity",
    empty: {
      filtered: "Nothing matches these filters.",
      none: "No activity yet. Orders, cancels and transfers sent from the dashboard appear here.",
    },
  },
  rowKey: (e: ActivityEntry) => e.id,
  technical: { hint: "HTTP status, latency, status codes, ids", columns: ACTIVITY_TECHNICAL_COLUMNS },
} as const;

/**
 * The journal for an auditor: every create and cancel sent from the dashboard, who asked,
 * what they asked for, and what came of it. HTTP status and latency are for developers, behind
 * "Show technical columns".
 */
export function ActivityTable() {
  const list = useListPage<keyof typeof FILTERS, Page<ActivityEntry>>(SPEC);
  const { rows } = list;
  const [userText, setUserText] = list.typed;
  const { nickname } = useProfileNames();

  // Emails seen so far, offered as suggestions for the user filter.
  const [seenUsers, setSeenUsers] = useState<readonly string[]>([]);
  const pageUsers = useMemo(() => [...new Set((rows ?? []).map((e) => e.user_email))], [rows]);
  if (pageUsers.some((u) => !seenUsers.includes(u))) setSeenUsers([...new Set([...seenUsers, ...pageUsers])].sort());

  const columns = useMemo(() => activityColumns(nickname), [nickname]);

  return (
    <ListCard
      list={list}
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
          <ListSelect list={list} name="kind" label="Action" options={KINDS} className="w-32" />
          <ListSelect list={list} name="status" label="Status" options={STATUS_FILTER_OPTIONS} className="w-48" />
        </>
      }
      columns={columns}
    />
  );
}
