"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { api, problemOf } from "@/lib/client/api";
import type { DeliveryView } from "@/lib/shared/webhooks";
import { webhookKeys } from "./webhook-keys";

/**
 * One more attempt now, with the same webhook-id (POST …/deliveries/{delivery_id}/retry, 202): for
 * a FAILED delivery, or a PENDING one waiting for its next attempt. The deliveries are read again,
 * the row PENDING until the dispatcher has tried it.
 */
export function RetryDeliveryButton({ delivery }: { delivery: DeliveryView }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  async function retry() {
    setBusy(true);
    setFailed(null);
    try {
      await api<{ delivery: DeliveryView }>(
        `/api/webhooks/${encodeURIComponent(delivery.webhook_id)}/deliveries/${encodeURIComponent(delivery.id)}/retry`,
        { method: "POST" },
      );
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(delivery.webhook_id) });
    } catch (error) {
      const p = problemOf(error);
      setFailed(p.detail ?? p.title);
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="flex flex-wrap items-center gap-2 lg:justify-end">
      <Button
        variant="secondary"
        size="sm"
        disabled={busy}
        onClick={retry}
        aria-label={`Retry ${delivery.event_type} delivery ${delivery.id}`}
      >
        {busy ? "Retrying…" : "Retry"}
      </Button>
      {failed && (
        <span role="alert" className="text-xs text-sell">
          Not retried: {failed}
        </span>
      )}
    </span>
  );
}
