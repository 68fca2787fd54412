"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useLiveStatus } from "@/lib/client/live-status";

/** Opens the page's live stream, and says so while it is down (the page polls meanwhile). */
export function LiveUpdates() {
  const client = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let gone = false;
    // Its own chunk, after the page's first script: the stream is not needed to draw the page.
    void import("@/lib/client/live-events").then(({ startLiveEvents }) => {
      if (!gone) stop = startLiveEvents(client);
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, [client]);
  const status = useLiveStatus();
  return (
    <span role="status" aria-live="polite" data-testid="live-status" data-status={status} className="text-xs">
      {status === "down" && (
        <span className="inline-flex items-center gap-1.5 rounded-full bg-surface-sunken px-2 py-1 text-ink-muted">
          <span aria-hidden className="size-2 animate-pulse rounded-full bg-amber-500" />
          Reconnecting…
        </span>
      )}
    </span>
  );
}
