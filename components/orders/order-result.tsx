"use client";

import { api } from "@/lib/client/api";
import { formatAmount } from "@/lib/shared/format";
import { useProfileNames } from "@/lib/client/profile-names";
import { keys } from "@/lib/client/queries";
import { Time } from "@/lib/client/time-zone";
import type { Order } from "@/lib/spec/order";
import { useFollowRecord } from "../forms/use-follow-record";
import { StatusBadge } from "../ui/status-badge";
import { useToast } from "../ui/toasts";
import { describeOutcome, isFinalOrder, orderEndNotice } from "./order-outcome";

/**
 * What the service answered, kept current until the order is final, in words next to what was
 * asked ("Bought 0.0154 BTC of 0.0154 BTC at avg 64,912.50 USD"), with a notice when it ends.
 */
export function OrderResult({ order: created }: { order: Order }) {
  const notify = useToast();
  const { nickname } = useProfileNames();
  const order = useFollowRecord({
    created,
    queryKey: keys.order(created.id),
    read: () =>
      api<Order>(`/api/v2/profiles/${encodeURIComponent(created.profile_id)}/orders/${encodeURIComponent(created.id)}`),
    isFinal: isFinalOrder,
    onFinal: (o) => notify(orderEndNotice(o, nickname(o.profile_id))),
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
      <p className="mt-2 font-medium" data-testid="order-outcome">
        {describeOutcome(order)}
      </p>
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
