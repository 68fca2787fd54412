"use client";

import { useEffect, useRef } from "react";
import type { HeldRequest } from "@/lib/shared/held-requests";
import type { CreateKind } from "@/lib/shared/policy";
import { useApprovalFeed } from "./approval-feed";

/**
 * Keeps a blotter's held rows (the first page's `held`) in step with the approvals: the live
 * stream's `approval` events re-read the one approvals feed every screen shares, and the table is
 * read again when a held row's request was decided (approved, rejected, withdrawn, expired) or a
 * request of its kind starts waiting. The stream pushes no table for either: nothing changed at
 * the service (yet).
 */
export function useHeldRefresh(
  kind: CreateKind,
  held: readonly Pick<HeldRequest<unknown>, "approval_id">[] | undefined,
  refetch: () => unknown,
): void {
  const feed = useApprovalFeed().data;
  // Waiting requests already accounted for: one the table's filters leave out is never in `held`,
  // and must not make the table read again at each answer. Null until the first look, which
  // only takes note (the table was just read).
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!feed || !held) return;
    const shown = new Set(held.map((h) => h.approval_id));
    const ofKind = feed.filter((a) => a.kind === kind);
    const decided = ofKind.some((a) => shown.has(a.id) && a.status !== "PENDING");
    const waiting = ofKind.filter((a) => a.status === "PENDING").map((a) => a.id);
    const fresh = seen.current !== null && waiting.some((id) => !shown.has(id) && !seen.current!.has(id));
    seen.current = new Set([...(seen.current ?? []), ...waiting]);
    if (decided || fresh) refetch();
  }, [feed, held, kind, refetch]);
}
