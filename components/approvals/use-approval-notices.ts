"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useToast } from "@/components/ui/toasts";
import { api } from "@/lib/client/api";
import { orderOf, useApprovalFeed, type Approval } from "@/lib/client/approval-feed";
import type { Order } from "@/lib/spec/order";

const ORDER_EVERY_MS = 3_000;
const FINAL_ORDER = new Set(["FILLED", "CANCELLED", "REJECTED", "EXPIRED"]);

/**
 * Notices for the signed-in person's own requests: approved, rejected or expired while the
 * screen is open, and the order an approved request placed once it fills. What was already
 * decided when the screen opened is not announced again.
 */
export function useApprovalNotices(email: string): void {
  const notify = useToast();
  const feed = useApprovalFeed();
  const seen = useRef<Map<string, Approval["status"]> | null>(null);
  // Orders an approved request of mine placed, followed until final: order id -> profile id.
  const following = useRef(new Map<string, string>());

  useEffect(() => {
    const items = feed.data;
    if (!items) return;
    const first = seen.current === null;
    const before = seen.current ?? new Map();
    seen.current = new Map(items.map((a) => [a.id, a.status]));
    if (first) return;
    for (const a of items) {
      const was = before.get(a.id);
      // A request first seen already decided was made and decided between two polls: still news.
      if (a.requested_by !== email || a.status === "PENDING" || was === a.status) continue;
      const notice = noticeOf(a);
      if (notice) notify(notice);
      const order = a.status === "APPROVED" ? orderOf(a) : null;
      if (order?.status === "FILLED") notify(filledNotice(order.id));
      else if (order && !FINAL_ORDER.has(order.status)) following.current.set(order.id, order.profile_id);
    }
  }, [feed.data, email, notify]);

  // Reads nothing while no order is followed.
  const orders = useQuery({
    queryKey: ["approved-orders", email],
    queryFn: ({ signal }) =>
      Promise.all(
        [...following.current].map(([id, profileId]) =>
          api<Order>(`/api/v2/profiles/${profileId}/orders/${id}`, { signal }),
        ),
      ),
    refetchInterval: ORDER_EVERY_MS,
  });
  useEffect(() => {
    for (const order of orders.data ?? []) {
      if (!FINAL_ORDER.has(order.status) || !following.current.delete(order.id)) continue;
      notify(
        order.status === "FILLED"
          ? filledNotice(order.id)
          : { key: `order-end:${order.id}`, title: `Your approved order ended ${order.status}`, tone: "warning" },
      );
    }
  }, [orders.data, notify]);
}

function noticeOf(a: Approval) {
  const what = a.kind === "policy" ? "policy change" : a.kind;
  switch (a.status) {
    case "APPROVED": {
      const failed = a.outcome && a.outcome.status >= 300;
      if (a.kind === "policy") {
        return failed
          ? { title: "Your policy change was approved, but not applied", tone: "error" as const }
          : {
              title: "Your policy change was approved and applied",
              detail: `Approved by ${a.decided_by}.`,
              tone: "success" as const,
            };
      }
      if (failed && a.outcome?.sent === false) {
        return {
          title: `Your ${what} was approved, but refused when checked again at send`,
          detail: (a.outcome.body as { detail?: string } | null)?.detail,
          tone: "error" as const,
        };
      }
      return failed
        ? { title: `Your ${what} was approved, but the service refused it`, tone: "error" as const }
        : {
            title: `Your ${what} was approved and sent`,
            detail: `Approved by ${a.decided_by}.`,
            tone: "success" as const,
          };
    }
    case "REJECTED":
      return {
        title: `Your ${what} was rejected`,
        detail: `${a.decided_by}: ${a.reason}`,
        tone: "error" as const,
      };
    case "EXPIRED":
      return { title: `Your ${what} request expired unapproved`, tone: "warning" as const };
    default:
      return null;
  }
}

// Keyed as the ticket's card keys an order's end (components/orders/order-outcome.ts): one notice per fill.
const filledNotice = (orderId: string) => ({
  key: `order-end:${orderId}`,
  title: "Your approved order filled",
  detail: `Order ${orderId.slice(0, 8)} is FILLED.`,
  tone: "success" as const,
});
