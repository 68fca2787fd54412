"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Card } from "@/components/ui/card";
import { TableError, TableMessage } from "@/components/ui/table-message";
import {
  APPROVAL_STATUSES,
  approvalKeys,
  fetchApprovals,
  FEED_EVERY_MS,
  seesEveryRequest,
  type Approval,
  type ApprovalStatus,
} from "@/lib/client/approval-feed";
import { pollWhileDown } from "@/lib/client/live-status";
import { useUrlFilters, type FilterSpec } from "@/lib/client/url-filters";
import type { Role } from "@/lib/shared/roles";
import { ApprovalCard } from "./approval-card";

const FILTERS = { status: APPROVAL_STATUSES } as const satisfies FilterSpec<string>;

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
  const items = list.data?.filter((a) => everyone || a.requested_by === email);
  const now = useNow(status === "PENDING");

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
            className={`rounded-md px-3 py-1.5 text-sm font-medium ${s === status ? "bg-brand-soft text-brand" : "text-ink-muted hover:bg-surface-sunken hover:text-ink"}`}
          >
            {TAB_LABELS[s]}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={`${TAB_LABELS[status]} requests`} aria-busy={list.isFetching}>
        {list.isError && !list.data ? (
          <TableError error={list.error} what="the requests" onRetry={() => list.refetch()} />
        ) : !items ? (
          <TableMessage>Loading requests…</TableMessage>
        ) : items.length === 0 ? (
          <TableMessage>{emptyWords(status, everyone)}</TableMessage>
        ) : (
          <ul className="space-y-4">
            {items.map((a: Approval) => (
              <li key={a.id}>
                <ApprovalCard approval={a} me={{ email, role }} now={now} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

function emptyWords(status: ApprovalStatus, everyone: boolean): string {
  if (status !== "PENDING") return `No ${status.toLowerCase()} requests.`;
  return everyone
    ? "Nothing waits for approval. Large transfers and orders appear here when someone asks for one."
    : "None of your requests waits for approval.";
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
