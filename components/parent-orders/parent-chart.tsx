"use client";

import dynamic from "next/dynamic";
import { zoneName } from "@/lib/shared/format";
import type { ParentOrder } from "@/lib/shared/parent-order";
import { useTimeZone } from "@/lib/client/time-zone";
import { Skeleton } from "../ui/skeleton";
import { ChartCredit } from "../market/chart-parts";

/** The chart library loads after the page's first script, in its own chunk; the frame keeps its room meanwhile. */
const ParentChartCanvas = dynamic(() => import("./parent-chart-canvas").then((m) => m.ParentChartCanvas), {
  ssr: false,
  loading: () => <Skeleton className="absolute inset-0" />,
});

/**
 * The market's price over a TWAP parent's life, each child's fill and the cap (the canvas:
 * parent-chart-canvas.tsx), with its legend, the zone its times are in and the library's credit.
 * The frame is drawn with the page, at its final size: nothing moves when the chart arrives.
 */
export function ParentChart({ parent }: { parent: ParentOrder }) {
  const { zone } = useTimeZone();
  const buy = parent.side === "BUY";
  return (
    <figure className="flex min-w-0 flex-col gap-1">
      <div className="relative h-72 min-w-0">
        <ParentChartCanvas parent={parent} />
      </div>
      <figcaption className="flex flex-wrap justify-between gap-x-4 gap-y-1 text-xs text-ink-muted">
        <span className="flex flex-wrap gap-x-3">
          <span>
            <span aria-hidden className={buy ? "text-buy" : "text-sell"}>
              ●
            </span>{" "}
            a child&apos;s fill, numbered by its slice
          </span>
          <span>
            <span aria-hidden className={buy ? "text-sell" : "text-buy"}>
              - -
            </span>{" "}
            the cap
          </span>
          {parent.quality.arrival_mid && (
            <span>
              <span aria-hidden>···</span> the mid at arrival
            </span>
          )}
        </span>
        <span data-testid="chart-zone">Times in {zoneName(zone)}</span>
        <ChartCredit />
      </figcaption>
    </figure>
  );
}
