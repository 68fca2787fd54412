"use client";

import { useSyncExternalStore } from "react";

/**
 * Whether the page's live stream (lib/client/live-events.ts) is up. The streamed queries poll
 * only while it is not: `refetchInterval: pollWhileDown(5_000)`.
 */

export type LiveStatus = "connecting" | "up" | "down";

let status: LiveStatus = "connecting";
const watchers = new Set<() => void>();
/** Set by the page's stream (live-events.ts). */
export const setLiveStatus = (next: LiveStatus) => {
  if (next === status) return;
  status = next;
  for (const w of watchers) w();
};

/** True while the stream is up: the streamed queries need no polling then. */
export const streamUp = (): boolean => status === "up";

/** Polling while anything shown can still change; slower otherwise, so others' new records still appear. */
export const LIVE_REFRESH_MS = 2_000;
export const IDLE_REFRESH_MS = 15_000;
export const refreshEvery = (live: boolean): number => (live ? LIVE_REFRESH_MS : IDLE_REFRESH_MS);

/** A refetchInterval that polls every `ms` only while the stream is down. */
export const pollWhileDown = (ms: number | false) => (): number | false => (streamUp() ? false : ms);

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    (w) => {
      watchers.add(w);
      return () => watchers.delete(w);
    },
    () => status,
    () => "connecting",
  );
}
