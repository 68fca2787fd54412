"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { api, problemOf } from "@/lib/client/api";
import type { DeliveryView } from "@/lib/shared/webhooks";
import { webhookKeys } from "./webhook-keys";

/**
 * "Send test event": a `webhook.test` event to this webhook alone (POST /api/webhooks/{id}/test,
 * 202); `onSent` opens the deliveries, read again at once, where it shows PENDING until the
 * dispatcher has tried it. A webhook turned off is refused (409), said beside the button.
 */
export function SendTestButton({
  id,
  url,
  disabled,
  onSent,
}: {
  id: string;
  url: string;
  disabled: boolean;
  onSent: () => void;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  async function send() {
    setBusy(true);
    setFailed(null);
    try {
      await api<{ delivery: DeliveryView }>(`/api/webhooks/${encodeURIComponent(id)}/test`, { method: "POST" });
      onSent();
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) });
    } catch (error) {
      const p = problemOf(error);
      setFailed(p.detail ?? p.title);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        disabled={disabled || busy}
        onClick={send}
        aria-label={`Send test event to ${url}`}
      >
        {busy ? "Sending…" : "Send test event"}
      </Button>
      {failed && (
        <span role="alert" className="text-xs text-sell">
          Not sent: {failed}
        </span>
      )}
    </>
  );
}
