"use client";

import { useQuery } from "@tanstack/react-query";
import { DetailItem } from "@/components/ui/row-details";
import { api } from "@/lib/client/api";
import { useSeen } from "@/lib/client/seen";
import { formatPrice } from "@/lib/shared/format";
import { slippageWords, type OrderQuality } from "@/lib/shared/order-quality";
import { FINAL_ORDER_STATUSES } from "@/lib/spec/enums";
import type { Order } from "@/lib/spec/order";

/** How long a working order's quality is kept before it is read again (its market VWAP runs to now). */
const WORKING_STALE_MS = 10_000;

/**
 * An order's execution quality in its details (issue 29), read from GET /api/orders/{id}/quality
 * only once the details are seen: the mid when the dashboard received it, the cost or saving of its
 * fills (their VWAP is the order's own, beside these) against that mid in basis points, and the
 * market's VWAP over its life. "—" for
 * what is not known (an order sent outside the dashboard has no arrival mid).
 */
export function OrderQualityItems({ order: o }: { order: Order }) {
  const [ref, seen] = useSeen<HTMLDivElement>();
  const done = FINAL_ORDER_STATUSES.includes(o.status);
  const quality = useQuery({
    // Its last change in the key: a fill since is read again.
    queryKey: ["order-quality", o.id, o.modified_at],
    queryFn: ({ signal }) =>
      api<OrderQuality>(
        `/api/orders/${encodeURIComponent(o.id)}/quality?profile_id=${encodeURIComponent(o.profile_id)}`,
        { signal },
      ),
    enabled: seen,
    staleTime: done ? Infinity : WORKING_STALE_MS,
  });
  const q = quality.data;
  const unknown = quality.isError ? "not known now" : "—";
  const price = (value: string | null | undefined) => (value ? formatPrice(value) : unknown);
  return (
    <>
      <DetailItem label="Arrival mid" ref={ref}>
        <span data-testid="quality-arrival-mid" data-state={quality.status}>
          {price(q?.arrival_mid)}
        </span>
      </DetailItem>
      <DetailItem label="Slippage">
        <span data-testid="quality-slippage">{q ? slippageWords(q.slippage_bps) : unknown}</span>
      </DetailItem>
      <DetailItem label="Market VWAP over its life">
        <span data-testid="quality-market-vwap">{price(q?.market_vwap)}</span>
      </DetailItem>
    </>
  );
}
