"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toasts";
import { api, problemOf } from "@/lib/client/api";
import { webhookKeys } from "./webhook-keys";

type State = { step: "idle" } | { step: "confirm" } | { step: "busy" } | { step: "failed"; why: string };

/**
 * Removes one webhook and its deliveries (DELETE /api/webhooks/{id}) after a confirmation that
 * names it, as revoking a token does; says so as a notice and reads the list again, where it is
 * then gone.
 */
export function RemoveWebhookButton({ id, url }: { id: string; url: string }) {
  const queryClient = useQueryClient();
  const notify = useToast();
  const [state, setState] = useState<State>({ step: "idle" });
  async function remove() {
    setState({ step: "busy" });
    try {
      await api(`/api/webhooks/${encodeURIComponent(id)}`, { method: "DELETE" });
      notify({ title: `Webhook removed: ${url}`, tone: "success", key: `webhook-removed:${id}` });
      queryClient.removeQueries({ queryKey: webhookKeys.deliveries(id) });
      await queryClient.invalidateQueries({ queryKey: webhookKeys.list });
    } catch (error) {
      const p = problemOf(error);
      setState({ step: "failed", why: p.detail ?? p.title });
    }
  }
  if (state.step === "confirm" || state.step === "busy")
    return (
      <span role="group" aria-label={`Remove ${url}?`} className="flex flex-wrap items-center gap-2">
        <span className="text-xs">Remove it? Nothing more is sent to it, and its deliveries go with it.</span>
        <Button variant="danger" size="sm" disabled={state.step === "busy"} onClick={remove}>
          {state.step === "busy" ? "Removing…" : "Remove it"}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={state.step === "busy"}
          onClick={() => setState({ step: "idle" })}
        >
          Keep
        </Button>
      </span>
    );
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Button variant="secondary" size="sm" onClick={() => setState({ step: "confirm" })} aria-label={`Remove ${url}`}>
        Remove
      </Button>
      {state.step === "failed" && (
        <span role="alert" className="text-xs text-sell">
          Not removed: {state.why}. Try again.
        </span>
      )}
    </span>
  );
}
