"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/** Ends one session (DELETE /api/sessions/{id}); the list is read again after. */
export function RevokeSessionButton({ id, user }: { id: string; user: string }) {
  const router = useRouter();
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  async function revoke() {
    setState("busy");
    const res = await fetch(`/api/sessions/${encodeURIComponent(id)}`, { method: "DELETE" });
    if (res.ok || res.status === 404) router.refresh();
    else setState("failed");
  }
  return (
    <button
      type="button"
      onClick={revoke}
      disabled={state === "busy"}
      aria-label={`End the session of ${user}`}
      className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium hover:bg-surface-sunken"
    >
      {state === "busy" ? "Ending…" : state === "failed" ? "Failed: try again" : "End session"}
    </button>
  );
}
