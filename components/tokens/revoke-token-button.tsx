"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toasts";
import { api, problemOf } from "@/lib/client/api";
import { tokenKeys } from "./token-keys";

type State = { step: "idle" } | { step: "confirm" } | { step: "busy" } | { step: "failed"; why: string };

/**
 * Revokes one token (DELETE /api/tokens/{id}) after a confirmation that names it, as ending a
 * session does (components/sessions/revoke-session-button.tsx); says so as a notice and reads the
 * list again, where the row then reads "revoked".
 */
export function RevokeTokenButton({ id, name }: { id: string; name: string }) {
  const queryClient = useQueryClient();
  const notify = useToast();
  const [state, setState] = useState<State>({ step: "idle" });
  async function revoke() {
    setState({ step: "busy" });
    try {
      await api(`/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
      notify({ title: `Revoked: ${name}`, tone: "success", key: `token-revoked:${id}` });
      await queryClient.invalidateQueries({ queryKey: tokenKeys.list });
      setState({ step: "idle" });
    } catch (error) {
      const p = problemOf(error);
      setState({ step: "failed", why: p.detail ?? p.title });
    }
  }
  if (state.step === "confirm" || state.step === "busy")
    return (
      <span role="group" aria-label={`Revoke ${name}?`} className="inline-flex flex-wrap items-center gap-2">
        <span className="text-xs">Revoke “{name}”? A script using it is refused at once.</span>
        <Button variant="danger" size="sm" disabled={state.step === "busy"} onClick={revoke}>
          {state.step === "busy" ? "Revoking…" : "Revoke it"}
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
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant="secondary" size="sm" onClick={() => setState({ step: "confirm" })} aria-label={`Revoke ${name}`}>
        Revoke
      </Button>
      {state.step === "failed" && (
        <span role="alert" className="text-xs text-sell">
          Not revoked: {state.why}. Try again.
        </span>
      )}
    </span>
  );
}
