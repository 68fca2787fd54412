import { IDLE_REFRESH_MS, LIVE_REFRESH_MS, useLiveStatus } from "@/lib/client/live-status";

/**
 * How fresh a table is, in a desk's words: whether anything shown is still working (an open
 * order, a pending transfer) and how changes arrive, as they happen or by refreshing. An empty
 * table or one of finished records says "Up to date", never "final": nothing is shown to be final.
 */
export function LiveIndicator({ live, pushed: streamed }: { live: boolean; pushed: boolean }) {
  const pushed = useLiveStatus() === "up" && streamed;
  const words = pushed
    ? live
      ? "Updating as it happens"
      : "Up to date"
    : `Refreshing every ${(live ? LIVE_REFRESH_MS : IDLE_REFRESH_MS) / 1000} s`;
  return (
    <span className="inline-flex items-center gap-1.5 text-xs whitespace-nowrap text-ink-muted" data-live={live}>
      <span aria-hidden className={`size-2 rounded-full ${live ? "animate-pulse bg-buy" : "bg-ink-faint"}`} />
      <span>{words}</span>
    </span>
  );
}
