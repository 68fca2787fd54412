"use client";

import { useQuery } from "@tanstack/react-query";
import type { Approval } from "@/lib/shared/approval";
import { isOpenParent, type ParentOrder } from "@/lib/shared/parent-order";
import { api } from "./api";
import { refreshEvery, streamUp } from "./live-status";

/**
 * TWAP parent orders (issue 29) as the ticket, the orders table and a parent's page read them:
 * GET /api/parent-orders (the newest, each with its children) and GET /api/parent-orders/{id}.
 * The live stream's `parent_order` event writes the parent as it stands into both
 * (lib/client/live-events.ts); they poll only while the stream is down.
 */

export const parentOrderKeys = {
  all: ["parent-orders"] as const,
  list: ["parent-orders", "list"] as const,
  one: (id: string) => ["parent-orders", "one", id] as const,
};

/** What POST /api/parent-orders answers: the parent started (201) or as it stands (a replay, 200), or held for four eyes (202). */
export type ParentOrderAnswer = { parent_order: ParentOrder; approval?: Approval };

/** Sends a TWAP parent order; `headers` carries the market typed past the price guard (Confirm-Price-Guard). */
export const createParentOrder = (request: object, headers: Record<string, string>) =>
  api<ParentOrderAnswer>("/api/parent-orders", { method: "POST", body: request, headers });

export type ParentAction = "pause" | "resume" | "cancel";

/** Pause, resume or cancel: the requester's or an admin's; a 409 when the parent's state does not allow it. */
export const actOnParentOrder = (id: string, action: ParentAction) =>
  api<{ parent_order: ParentOrder }>(`/api/parent-orders/${encodeURIComponent(id)}/${action}`, { method: "POST" }).then(
    (r) => r.parent_order,
  );

/** The newest parent orders, each with its children, kept current. */
export function useParentOrders() {
  return useQuery({
    queryKey: parentOrderKeys.list,
    queryFn: ({ signal }) => api<{ items: ParentOrder[] }>("/api/parent-orders", { signal }).then((r) => r.items),
    // As the tables: while the stream is down, quicker while one may still send a child.
    refetchInterval: (q) =>
      streamUp() ? false : refreshEvery(q.state.data?.some((p) => isOpenParent(p.status)) ?? false),
  });
}

/**
 * One parent order with its children and its execution quality, kept current while it may still
 * change; `enabled` false reads nothing (an approval's parent before it started).
 */
export function useParentOrder(id: string, initial?: ParentOrder, enabled = true) {
  return useQuery({
    enabled,
    queryKey: parentOrderKeys.one(id),
    queryFn: ({ signal }) =>
      api<{ parent_order: ParentOrder }>(`/api/parent-orders/${encodeURIComponent(id)}`, { signal }).then(
        (r) => r.parent_order,
      ),
    ...(initial && initial.id === id ? { initialData: initial } : {}),
    refetchInterval: (q) =>
      streamUp() || (q.state.data && !isOpenParent(q.state.data.status)) ? false : refreshEvery(true),
  });
}
