"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { Card } from "@/components/ui/card";
import { TableError, TableMessage } from "@/components/ui/table-message";
import {
  APPROVAL_STATUSES,
  approvalKeys,
  fetchApprovals,
  FEED_EVERY_MS,
  seesEveryRequest,
  useApprovalFeed,
  type Approval,
  type ApprovalStatus,
} from "@/lib/client/approval-feed";
import { pollWhileDown } from "@/lib/client/live-status";
import { useUrlFilters, type FilterSpec } from "@/lib/client/url-filters";
import { APPROVAL_SORT_LABELS, APPROVAL_SORTS, viewOfApprovals, type ApprovalSort } from "@/lib/shared/approval-order";
import type { ApprovalKind } from "@/lib/shared/approval";
import { approvalAnchor } from "@/lib/shared/held-requests";
import type { Role } from "@/lib/shared/roles";
import { FilterBar, FilterInput, FilterSelect } from "../ui/filter-bar";
import { ApprovalCard } from "./approval-card";
import { ApprovalRows } from "./approval-rows";

const VIEWS = ["cards", "list"] as const;
const FILTERS = {
  status: APPROVAL_STATUSES,
  kind: ["order", "transfer", "batch", "parent_order", "policy"],
  who: null,
  sort: APPROVAL_SORTS,
  view: VIEWS,
} as const satisfies FilterSpec<string>;

/** Past this many requests the page lists them one line each, unless the person chose cards. */
const CARDS_UP_TO = 5;

const TAB_LABELS: Record<ApprovalStatus, string> = {
  PENDING: "Waiting",
  APPROVED: "Approved",
  REJECTED: "Rejected",
  EXPIRED: "Expired",
  WITHDRAWN: "Withdrawn",
};

/**
 * The inbox: requests waiting for a decision (an approver sees everyone's, anyone else their
 * own), and the decided ones by status, each with its history.
 */
export function ApprovalsInbox({ email, role }: { email: string; role: Role }) {
  const { filters, update } = useUrlFilters(FILTERS);
  const status = (filters.status || "PENDING") as ApprovalStatus;
  const list = useQuery({
    queryKey: approvalKeys.list(status),
    queryFn: ({ signal }) => fetchApprovals(status, signal),
    refetchInterval: pollWhileDown(FEED_EVERY_MS),
  });
  const everyone = seesEveryRequest(role);
  // One array per answer read: the steady list below compares it to tell a new read.
  const { kind, who, sort } = filters;
  const listed = useMemo(
    () =>
      list.data &&
      viewOfApprovals(
        list.data.filter((a) => everyone || a.requested_by === email),
        { kind: kind as ApprovalKind | "", who, sort: sort as ApprovalSort | "" },
      ),
    [list.data, everyone, email, kind, who, sort],
  );
  const feed = useApprovalFeed();
  // A new filter or sort is a new list: the steady order starts again from it.
  const { items, latest, dismiss } = useSteadyList(`${status}|${kind}|${who}|${sort}`, listed, feed.data);
  const now = useNow(status === "PENDING");
  const view = filters.view || (items && items.length > CARDS_UP_TO ? "list" : "cards");
  useScrollToLinked(items);

  return (
    <Card
      title="Approvals"
      actions={
        <p className="text-sm text-ink-muted">
          {everyone
            ? "Requests others made that need a second person. You cannot decide your own."
            : "Your requests that wait for an approver."}
        </p>
      }
    >
      <div role="tablist" aria-label="Requests by status" className="mb-4 flex flex-wrap gap-1">
        {APPROVAL_STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={s === status}
            onClick={() => update({ status: s === "PENDING" ? "" : s })}
            className={`min-h-9 rounded-md px-3 py-1.5 text-sm font-medium max-sm:min-h-11 pointer-coarse:min-h-11 ${s === status ? "bg-brand-soft text-brand" : "text-ink-muted hover:bg-surface-sunken hover:text-ink"}`}
          >
            {TAB_LABELS[s]}
          </button>
        ))}
      </div>
      <FilterBar
        label="Filter and sort requests"
        active={Boolean(kind || who || sort)}
        onClear={() => update({ kind: "", who: "", sort: "" })}
      >
        <FilterSelect
          label="Kind"
          value={kind}
          onChange={(v) => update({ kind: v })}
          options={KIND_OPTIONS}
          className="w-36"
          primary
        />
        <FilterInput
          label="Requested by"
          value={who}
          onChange={(v) => update({ who: v })}
          placeholder="email or name"
        />
        <FilterSelect
          label="Sort"
          value={sort}
          onChange={(v) => update({ sort: v })}
          options={APPROVAL_SORTS.filter((s) => s !== "newest").map((s) => ({
            value: s,
            label: APPROVAL_SORT_LABELS[s],
          }))}
          allLabel={APPROVAL_SORT_LABELS.newest}
          className="w-44"
        />
        <div role="group" aria-label="Show requests as" className="flex gap-1 self-end">
          {VIEWS.map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => update({ view: v })}
              className={`min-h-9 rounded-md px-3 py-1.5 text-sm font-medium max-sm:min-h-11 pointer-coarse:min-h-11 ${view === v ? "bg-brand-soft text-brand" : "text-ink-muted hover:bg-surface-sunken hover:text-ink"}`}
            >
              {v === "cards" ? "Cards" : "Compact list"}
            </button>
          ))}
        </div>
      </FilterBar>
      <div role="tabpanel" aria-label={`${TAB_LABELS[status]} requests`} aria-busy={list.isFetching}>
        {list.isError && !list.data ? (
          <TableError error={list.error} what="the requests" onRetry={() => list.refetch()} />
        ) : !items ? (
          <TableMessage>Loading requests…</TableMessage>
        ) : items.length === 0 ? (
          <TableMessage>{emptyWords(status, everyone)}</TableMessage>
        ) : view === "list" ? (
          <ApprovalRows
            items={items}
            card={(a) => (
              <ApprovalCard
                approval={latest.get(a.id) ?? a}
                asListed={a}
                me={{ email, role }}
                now={now}
                onDismiss={() => dismiss(a.id)}
              />
            )}
            now={now}
          />
        ) : (
          <ul className="space-y-4">
            {items.map((a: Approval) => (
              <li key={a.id} id={approvalAnchor(a.id)}>
                <ApprovalCard
                  approval={latest.get(a.id) ?? a}
                  asListed={a}
                  me={{ email, role }}
                  now={now}
                  onDismiss={() => dismiss(a.id)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

const KIND_OPTIONS = [
  { value: "order", label: "Orders" },
  { value: "transfer", label: "Transfers" },
  { value: "batch", label: "Batches" },
  { value: "parent_order", label: "Parent orders" },
  { value: "policy", label: "Policy changes" },
];

/**
 * A link to one request lands on it once the list has loaded: the browser looked for the
 * anchor when the page opened, before the requests were read.
 */
function useScrollToLinked(items: readonly Approval[] | undefined) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !items) return;
    const target = window.location.hash.slice(1);
    if (target) document.getElementById(target)?.scrollIntoView({ block: "start" });
    done.current = true;
  }, [items]);
}

function emptyWords(status: ApprovalStatus, everyone: boolean): string {
  if (status !== "PENDING") return `No ${status.toLowerCase()} requests.`;
  return everyone
    ? "Nothing waits for approval. Large transfers, batches, orders and parent orders appear here when someone asks for one."
    : "None of your requests waits for approval.";
}

/**
 * The cards in a steady order, so that nothing moves under the pointer: a request that leaves
 * the list (decided here or by someone else) keeps its slot, in its latest state from the feed of
 * every status, until dismissed; a new one joins at the end until the page is read again.
 */
function useSteadyList(tab: string, listed: Approval[] | undefined, feed: Approval[] | undefined) {
  const [shown, setShown] = useState<{ tab: string; listed?: Approval[]; items: Approval[] }>({
    tab,
    items: [],
  });
  // Dismissed in this tab only: the same request is listed under its new status in another.
  const [dismissed, setDismissed] = useState<{ tab: string; ids: ReadonlySet<string> }>({
    tab,
    ids: new Set(),
  });
  const gone = dismissed.tab === tab ? dismissed.ids : new Set<string>();
  // Adjusted while rendering when the list read changes (React's pattern for state derived from props).
  if (shown.tab !== tab || shown.listed !== listed) {
    const kept = shown.tab === tab ? shown.items.filter((a) => !gone.has(a.id)) : [];
    const known = new Set(kept.map((a) => a.id));
    const byId = new Map((listed ?? []).map((a) => [a.id, a]));
    setShown({
      tab,
      listed,
      items: [...kept.map((a) => byId.get(a.id) ?? a), ...(listed ?? []).filter((a) => !known.has(a.id))],
    });
  }
  // A request still listed is as the list read it; one that left it, as the feed read it last.
  const listedIds = new Set((listed ?? []).map((a) => a.id));
  const latest = new Map((feed ?? []).filter((a) => !listedIds.has(a.id)).map((a) => [a.id, a]));
  const items = listed && shown.items.filter((a) => !gone.has(a.id));
  const dismiss = (id: string) => setDismissed((d) => ({ tab, ids: new Set(d.tab === tab ? d.ids : []).add(id) }));
  return { items, latest, dismiss };
}

/** The time now, each second while `ticking` (the countdowns); fixed otherwise. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
