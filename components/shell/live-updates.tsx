"use client";

import { useIsFetching, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useHydrated } from "@/lib/client/hydrated";
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
  // Whether the shell answers clicks yet, and how many queries are in flight: for tests that wait
  // for the page to be ready or to settle (test/support/browser.ts).
  const hydrated = useHydrated();
  const fetching = useIsFetching();
  // Plain text: this sits in every page's first script, so it is kept small.
  return (
    <span
      role="status"
      data-testid="live-status"
      data-status={status}
      data-hydrated={hydrated}
      data-fetching={fetching}
      className="text-xs text-warn"
    >
      {status === "down" && "Reconnecting…"}
    </span>
  );
}
