"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, type ReactNode } from "react";
import { Bars } from "@/components/ui/loading-shape";
import { StatusBadge } from "@/components/ui/status-badge";
import { TableError } from "@/components/ui/table-message";
import { api } from "@/lib/client/api";
import { Time } from "@/lib/client/time-zone";
import type { DeliveryView } from "@/lib/shared/webhooks";
import { RetryDeliveryButton } from "./retry-delivery-button";
import { webhookKeys } from "./webhook-keys";

/**
 * While any delivery is PENDING the dispatcher is at work in the background (it sweeps every
 * second): the list is read again this often until none is.
 */
export const DELIVERIES_POLL_MS = 2_000;

const anyPending = (items: DeliveryView[] | undefined) => Boolean(items?.some((d) => d.status === "PENDING"));

/**
 * A webhook's deliveries, newest first (GET /api/webhooks/{id}/deliveries): when, the event, its
 * status, the attempts made, the last answer (a status code, or why there was none) and when the
 * next attempt is due; Retry on a FAILED or PENDING one. A row is a card on a phone (nothing
 * scrolls sideways at 390 px) and a table row from `lg` up, as the tokens page's.
 */
export function DeliveriesTable({ webhookId, url }: { webhookId: string; url: string }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: webhookKeys.deliveries(webhookId),
    queryFn: ({ signal }) =>
      api<{ items: DeliveryView[] }>(`/api/webhooks/${encodeURIComponent(webhookId)}/deliveries`, { signal }).then(
        (r) => r.items,
      ),
    refetchInterval: (q) => (anyPending(q.state.data) ? DELIVERIES_POLL_MS : false),
  });
  // A delivery that failed or went through changes the webhook's own state (failing since …): read it again.
  const outcomes = deliveries.data?.map((d) => `${d.id}:${d.status}:${d.attempts}`).join(",");
  useEffect(() => {
    if (outcomes !== undefined) void queryClient.invalidateQueries({ queryKey: webhookKeys.list });
  }, [outcomes, queryClient]);

  const caption = `Deliveries to ${url}, newest first`;
  if (deliveries.isError && !deliveries.data)
    return <TableError error={deliveries.error} what="the deliveries" onRetry={() => deliveries.refetch()} />;
  if (!deliveries.data) return <Bars count={2} className="h-8" gap="gap-2" />;
  if (deliveries.data.length === 0)
    return (
      <p className="text-sm text-ink-muted">
        Nothing sent yet. Each event it subscribes to shows here, and so does a test event.
      </p>
    );
  return (
    <div role="table" aria-label={caption} className="text-sm" data-testid="deliveries">
      <div role="rowgroup" className="hidden lg:block">
        <div role="row" className={`${ROW} py-2 text-ink-muted`}>
          <span role="columnheader">Time</span>
          <span role="columnheader">Event</span>
          <span role="columnheader">Status</span>
          <span role="columnheader">Attempts</span>
          <span role="columnheader">Last answer</span>
          <span role="columnheader">Next attempt</span>
          <span role="columnheader">
            <span className="sr-only">Actions</span>
          </span>
        </div>
      </div>
      <div role="rowgroup">
        {deliveries.data.map((d) => (
          <div
            role="row"
            key={d.id}
            data-row={d.id}
            data-status={d.status}
            data-attempts={d.attempts}
            className={`${ROW} border-t border-slate-200 py-2`}
          >
            <Cell label="Time">
              <Time iso={d.created_at} />
            </Cell>
            <Cell label="Event">
              <span className="break-all font-mono text-xs">{d.event_type}</span>
            </Cell>
            <Cell label="Status">
              <StatusBadge
                status={d.status}
                title={d.delivered_at ? `Delivered ${new Date(d.delivered_at).toISOString()}` : undefined}
              />
            </Cell>
            <Cell label="Attempts">
              <span data-testid="attempts">{d.attempts}</span>
            </Cell>
            <Cell label="Last answer">
              <span data-testid="last-answer" className="break-words">
                {lastAnswer(d)}
              </span>
            </Cell>
            <Cell label="Next attempt">
              {d.status === "PENDING" && d.next_attempt_at ? <Time iso={d.next_attempt_at} /> : "—"}
            </Cell>
            <span role="cell" className="lg:text-right">
              {d.status !== "DELIVERED" && <RetryDeliveryButton delivery={d} />}
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}

/** The last attempt's answer: its status code, why there was none, or nothing tried yet. */
function lastAnswer(d: DeliveryView): string {
  if (d.last_status_code !== null) return `HTTP ${d.last_status_code}`;
  if (d.last_error) return d.last_error;
  return d.attempts === 0 ? "Not tried yet" : "—";
}

/** One card per delivery on a phone; the table's columns from `lg` up. */
const ROW =
  "grid grid-cols-1 gap-1 lg:grid-cols-[minmax(9rem,1fr)_minmax(8rem,1fr)_6.5rem_4.5rem_minmax(7rem,1.2fr)_minmax(9rem,1fr)_minmax(5rem,8rem)] lg:items-center lg:gap-3 lg:[&_time]:whitespace-normal";

/** A value with its column's name beside it on a phone, where there is no header row. */
function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span role="cell" className="flex min-w-0 gap-2">
      <span className="w-24 shrink-0 text-ink-muted lg:hidden">{label}</span>
      <span className="min-w-0">{children}</span>
    </span>
  );
}
