"use client";

import { useQuery } from "@tanstack/react-query";
import type { Approval, ApprovalStatus } from "@/lib/shared/approval";
import { can, type Role } from "@/lib/shared/roles";
import { api, query } from "./api";
import { pollWhileDown } from "./live-status";

/**
 * Held creates (four eyes) as GET /api/approvals answers them, and the one feed every screen
 * shares for the navigation's count and the notices. The live stream's `approval` events make
 * every approvals query read again (lib/client/live-events.ts); they poll only while it is down.
 */

export { APPROVAL_STATUSES, type Approval, type ApprovalStatus } from "@/lib/shared/approval";

export const approvalKeys = {
  all: ["approvals"] as const,
  list: (status: ApprovalStatus) => ["approvals", "list", status] as const,
  feed: ["approvals", "feed"] as const,
  one: (id: string) => ["approvals", "one", id] as const,
};

export const FEED_EVERY_MS = 5_000;

export const fetchApprovals = (status?: ApprovalStatus, signal?: AbortSignal) =>
  api<{ items: Approval[] }>(`/api/approvals${query({ status })}`, { signal }).then((r) => r.items);

/** The latest requests of every status: what the count and the notices read. */
export function useApprovalFeed() {
  return useQuery({
    queryKey: approvalKeys.feed,
    queryFn: ({ signal }) => fetchApprovals(undefined, signal),
    refetchInterval: pollWhileDown(FEED_EVERY_MS),
    refetchIntervalInBackground: true,
  });
}

/** Whom the inbox is for: an approver sees every request; anyone else their own. */
export const seesEveryRequest = (role: Role) => can(role, "approve");

/** Requests waiting on this person: others' for an approver, their own for a requester. */
export function waitingOn(approvals: readonly Approval[], me: { email: string; role: Role }): Approval[] {
  return approvals.filter(
    (a) =>
      a.status === "PENDING" && (seesEveryRequest(me.role) ? a.requested_by !== me.email : a.requested_by === me.email),
  );
}

/** "1 h 05 min", "4 min 09 s", "12 s": what is left of a request's time; "expired" at 0. */
export function timeLeft(ms: number): string {
  if (ms <= 0) return "expired";
  const s = Math.floor(ms / 1000);
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  if (h > 0) return `${h} h ${two(m)} min`;
  if (m > 0) return `${m} min ${two(sec)} s`;
  return `${sec} s`;
}

/** The order a sent request made, when the service answered with one. */
export function orderOf(a: Approval): { id: string; profile_id: string; status: string } | null {
  if (a.kind !== "order" || !a.outcome || a.outcome.status >= 300) return null;
  const body = a.outcome.body as { id?: unknown; status?: unknown } | null;
  return typeof body?.id === "string"
    ? { id: body.id, profile_id: a.profile_id, status: String(body.status ?? "") }
    : null;
}
