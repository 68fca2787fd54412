"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { approvalNotice, approvedOrderNotice } from "@/components/notices/notice-words";
import { useToast } from "@/components/ui/toasts";
import { api } from "@/lib/client/api";
import { orderOf, useApprovalFeed, type Approval } from "@/lib/client/approval-feed";
import { useProfileNames } from "@/lib/client/profile-names";
import type { Order } from "@/lib/spec/order";

const ORDER_EVERY_MS = 3_000;
const FINAL_ORDER = new Set(["FILLED", "CANCELLED", "REJECTED", "EXPIRED"]);

/**
 * Notices for the signed-in person's own requests, naming each (approvalNotice): approved,
 * rejected or expired while the screen is open, and the order an approved request placed once it
 * ends. What was already decided when the screen opened is not announced again. Answers whether
 * it is watching yet (it has read what was decided before).
 */
export function useApprovalNotices(email: string): boolean {
  const notify = useToast();
  const feed = useApprovalFeed();
  const names = useProfileNames();
  const seen = useRef<Map<string, Approval["status"]> | null>(null);
  // Orders an approved request of mine placed, followed until final: order id -> its approval.
  const following = useRef(new Map<string, Approval>());

  useEffect(() => {
    const items = feed.data;
    if (!items) return;
    if (seen.current === null) {
      seen.current = new Map(items.map((a) => [a.id, a.status]));
      return;
    }
    // Told once the profiles' nicknames are known; until then the news keeps.
    if (names.loading) return;
    const before = seen.current;
    seen.current = new Map(items.map((a) => [a.id, a.status]));
    for (const a of items) {
      const was = before.get(a.id);
      // A request first seen already decided was made and decided between two polls: still news.
      if (a.requested_by !== email || a.status === "PENDING" || was === a.status) continue;
      const notice = approvalNotice(a, names.nickname);
      if (notice) notify(notice);
      const order = a.status === "APPROVED" ? orderOf(a) : null;
      if (order?.status === "FILLED") notify(approvedOrderNotice(a, order, names.nickname));
      else if (order && !FINAL_ORDER.has(order.status)) following.current.set(order.id, a);
    }
  }, [feed.data, email, notify, names]);

  // Reads nothing while no order is followed.
  const orders = useQuery({
    queryKey: ["approved-orders", email],
    queryFn: ({ signal }) =>
      Promise.all(
        [...following.current].map(([id, a]) =>
          api<Order>(`/api/v2/profiles/${a.profile_id}/orders/${id}`, { signal }),
        ),
      ),
    refetchInterval: ORDER_EVERY_MS,
  });
  useEffect(() => {
    for (const order of orders.data ?? []) {
      const a = following.current.get(order.id);
      if (!a || !FINAL_ORDER.has(order.status)) continue;
      following.current.delete(order.id);
      notify(approvedOrderNotice(a, order, names.nickname));
    }
  }, [orders.data, notify, names.nickname]);

  return feed.data !== undefined;
}
