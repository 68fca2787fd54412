"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { formatAmount } from "@/lib/client/format";
import { Time } from "@/lib/client/time-zone";
import { FINAL_ORDER_STATUSES } from "@/lib/spec/enums";
import type { Order } from "@/lib/spec/order";
import { StatusBadge } from "../ui/status-badge";

/**
 * What the service answered, kept current: the create answers SUBMITTED, and the order
 * fills or rests an instant later, so the record is re-read until it is final.
 */
export function OrderResult({ order: created }: { order: Order }) {
  const { data: order = created } = useQuery({
    queryKey: ["orders", "one", created.id],
    queryFn: () =>
      api<Order>(`/api/v2/profiles/${encodeURIComponent(created.profile_id)}/orders/${encodeURIComponent(created.id)}`),
    initialData: created,
    refetchInterval: (q) => (q.state.data && FINAL_ORDER_STATUSES.includes(q.state.data.status) ? false : 1_000),
  });
  const filled = /[1-9]/.test(order.amount_filled);
  return (
    <div
      role="status"
      className="rounded-md border border-buy/30 bg-buy-soft/40 p-3 text-sm"
      data-testid="order-result"
    >
      <div className="flex items-center justify-between">
        <span className="font-semibold">Order sent</span>
        <StatusBadge status={order.status} />
      </div>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-ink-muted">Amount filled</dt>
        <dd className="font-mono" data-testid="order-result-filled">
          {formatAmount(order.amount_filled)}
        </dd>
        <dt className="text-ink-muted">Average price</dt>
        <dd className="font-mono">{filled ? formatAmount(order.volume_weighted_average_price, { min: 2 }) : "—"}</dd>
        <dt className="text-ink-muted">Order id</dt>
        <dd className="truncate font-mono text-xs" title={order.id}>
          {order.id}
        </dd>
        <dt className="text-ink-muted">Ref id</dt>
        <dd className="truncate font-mono text-xs" title={order.ref_id}>
          {order.ref_id}
        </dd>
        <dt className="text-ink-muted">Created</dt>
        <dd>
          <Time iso={order.created_at} />
        </dd>
      </dl>
    </div>
  );
}
