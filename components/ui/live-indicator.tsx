import { useLiveStatus } from "@/lib/client/live-status";

/** Polling while anything shown can still change; slower otherwise, so others' new records still appear. */
const LIVE_REFRESH_MS = 2_000;
const IDLE_REFRESH_MS = 15_000;
export const refreshEvery = (live: boolean): number => (live ? LIVE_REFRESH_MS : IDLE_REFRESH_MS);

/** Whether anything shown can still change, and how changes arrive: pushed, or polled at one of two rates. */
export function LiveIndicator({ live }: { live: boolean }) {
  const pushed = useLiveStatus() === "up";
  return (
    <span className="inline-flex items-center gap-1.5 text-xs whitespace-nowrap text-ink-muted">
      <span aria-hidden className={`size-2 rounded-full ${live ? "animate-pulse bg-buy" : "bg-ink-faint"}`} />
      <span>
        {live ? "Live" : "All final"}
        <span className="hidden sm:inline">
          {pushed ? ": updates pushed" : `: refreshing every ${(live ? LIVE_REFRESH_MS : IDLE_REFRESH_MS) / 1000} s`}
        </span>
      </span>
    </span>
  );
}
