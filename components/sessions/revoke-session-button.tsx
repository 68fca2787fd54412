"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toasts";
import { signOut } from "@/lib/client/sign-out";

type State = { step: "idle" } | { step: "confirm" } | { step: "busy" } | { step: "failed"; why: string };

/**
 * Ends one session (DELETE /api/sessions/{id}) after a confirmation that says who is signed
 * out; says when it is done, in the row and as a notice (the row leaves the list once it is
 * read again, the notice stays), and reads the list again. Ending one's own session signs out.
 */
export function RevokeSessionButton({ id, user, own = false }: { id: string; user: string; own?: boolean }) {
  const router = useRouter();
  const [state, setState] = useState<State>({ step: "idle" });
  const [done, setDone] = useState(false);
  const notify = useToast();
  async function revoke() {
    setState({ step: "busy" });
    const res = await fetch(`/api/sessions/${encodeURIComponent(id)}`, { method: "DELETE" }).catch(() => null);
    if (res && (res.ok || res.status === 404)) {
      if (own) return void signOut();
      setDone(true);
      notify({ title: `Ended: ${user} is signed out`, tone: "success", key: `session-ended:${id}` });
      router.refresh();
    } else setState({ step: "failed", why: res ? `the server answered ${res.status}` : "no answer from the server" });
  }
  if (done)
    return (
      // Announced by the notice (one status, which outlives the row); the row says it until it leaves.
      <span className="text-xs font-medium text-buy">Ended: {user} is signed out</span>
    );
  if (state.step === "confirm" || state.step === "busy")
    return (
      <span
        role="group"
        aria-label={`End the session of ${user}?`}
        className="inline-flex flex-wrap items-center gap-2"
      >
        <span className="text-xs">
          {own
            ? "End your own session? You are signed out here."
            : `End this session of ${user}? They are signed out at once.`}
        </span>
        <Button variant="danger" disabled={state.step === "busy"} onClick={revoke}>
          {state.step === "busy" ? "Ending…" : "End it"}
        </Button>
        <Button variant="secondary" disabled={state.step === "busy"} onClick={() => setState({ step: "idle" })}>
          Keep
        </Button>
      </span>
    );
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant="secondary" onClick={() => setState({ step: "confirm" })} aria-label={`End session of ${user}`}>
        End session
      </Button>
      {state.step === "failed" && (
        <span role="alert" className="text-xs text-sell">
          Not ended: {state.why}. Try again.
        </span>
      )}
    </span>
  );
}
