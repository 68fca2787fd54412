"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Bars } from "@/components/ui/loading-shape";
import { TableError } from "@/components/ui/table-message";
import { api } from "@/lib/client/api";
import { Time } from "@/lib/client/time-zone";
import type { WebhookView } from "@/lib/shared/webhooks";
import { DeliveriesTable } from "./deliveries-table";
import { eventsInWords } from "./event-words";
import { RemoveWebhookButton } from "./remove-webhook-button";
import { SendTestButton } from "./send-test-button";
import { webhookKeys } from "./webhook-keys";

/** A webhook's state in one word, as `data-state` says it: delivering, failing, or turned off. */
export type WebhookState = "enabled" | "failing" | "off";

export const webhookState = (w: WebhookView): WebhookState =>
  !w.enabled ? "off" : w.failing_since ? "failing" : "enabled";

/**
 * The webhooks, newest first (GET /api/webhooks): each one's URL, description, events, whether it
 * delivers, fails (since when) or was turned off after failing for days (since when), who added
 * it and when; Send test event, its deliveries (opened in place), and Remove.
 */
export function WebhooksList() {
  const webhooks = useQuery({
    queryKey: webhookKeys.list,
    queryFn: ({ signal }) => api<{ items: WebhookView[] }>("/api/webhooks", { signal }).then((r) => r.items),
  });
  let body: ReactNode;
  if (webhooks.isError && !webhooks.data)
    body = <TableError error={webhooks.error} what="the webhooks" onRetry={() => webhooks.refetch()} />;
  else if (!webhooks.data) body = <Bars count={2} className="h-24" gap="gap-3" />;
  else if (webhooks.data.length === 0)
    body = <p className="text-sm text-ink-muted">No webhooks yet. A webhook added above shows here.</p>;
  else
    body = (
      <ul aria-label="Webhooks" className="space-y-4">
        {webhooks.data.map((w) => (
          <WebhookItem key={w.id} webhook={w} />
        ))}
      </ul>
    );
  return <Card title="Webhooks">{body}</Card>;
}

const STATE_TONE: Record<WebhookState, string> = {
  enabled: "bg-buy-soft text-buy",
  failing: "bg-warn-soft text-warn",
  off: "border border-dashed border-slate-400 bg-surface text-slate-700",
};

function WebhookItem({ webhook: w }: { webhook: WebhookView }) {
  const [open, setOpen] = useState(false);
  const state = webhookState(w);
  const titleId = `webhook-${w.id}-url`;
  const panelId = `webhook-${w.id}-deliveries`;
  return (
    <li
      data-row={w.id}
      data-state={state}
      aria-labelledby={titleId}
      className="space-y-3 rounded-md border border-slate-200 p-3 text-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="min-w-0 break-all font-mono text-sm font-semibold">
          {w.url}
        </h3>
        <span
          data-testid="webhook-state"
          className={`rounded px-1.5 py-0.5 text-xs font-semibold ${STATE_TONE[state]}`}
        >
          {state === "enabled" ? (
            "Delivering"
          ) : state === "failing" ? (
            <>
              Failing since <Time iso={w.failing_since!} />
            </>
          ) : (
            <>
              Turned off since <Time iso={w.disabled_at ?? undefined} />
            </>
          )}
        </span>
      </div>
      {state === "off" && (
        <p className="text-xs text-ink-muted">
          Every delivery failed for three days, so nothing more is sent to it. Remove it and add it again once the
          receiver answers.
        </p>
      )}
      <dl className="grid gap-1 sm:grid-cols-[8rem_minmax(0,1fr)]">
        <Term label="Description">{w.description || <span className="text-ink-muted">None</span>}</Term>
        <Term label="Events">
          <span className="break-words">{eventsInWords(w.events)}</span>
        </Term>
        <Term label="Added">
          <span className="break-all">{w.created_by}</span>, <Time iso={w.created_at} />
        </Term>
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <SendTestButton id={w.id} url={w.url} disabled={!w.enabled} onSent={() => setOpen(true)} />
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "Hide deliveries" : "Show deliveries"}
        </Button>
        <RemoveWebhookButton id={w.id} url={w.url} />
      </div>
      {open && (
        <section id={panelId} aria-label={`Deliveries to ${w.url}`} className="border-t border-slate-200 pt-2">
          <DeliveriesTable webhookId={w.id} url={w.url} />
        </section>
      )}
    </li>
  );
}

function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-ink-muted">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}
