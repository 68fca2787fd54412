"use client";

import dynamic from "next/dynamic";
import type { RefObject } from "react";
import type { Market } from "@/lib/spec/enums";
import { marketLabel } from "@/lib/spec/markets";
import { Card } from "../ui/card";
import { DepthLadder } from "./depth-ladder";
import { useTicketPricePick } from "./ticket-price-pick";

/** The charting library is the heaviest part: it arrives last, in a chunk of its own. */
const PriceChart = dynamic(() => import("./price-chart").then((m) => m.PriceChart), {
  ssr: false,
  loading: () => <div aria-hidden className="h-64 animate-pulse rounded-md bg-surface-raised lg:h-full" />,
});

/**
 * A market at a glance beside the ticket: recent trades as a chart, and the book's top levels,
 * whose prices fill the ticket when drawn inside its form context.
 */
export function MarketView({ market, ticketPart }: { market: Market; ticketPart: RefObject<HTMLElement | null> }) {
  const onPickPrice = useTicketPricePick(ticketPart);
  return (
    <Card
      title={`${marketLabel(market)} market`}
      className="flex h-full min-w-0 flex-col"
      bodyClassName="min-h-0 flex-1"
    >
      {/* Side by side, both as tall as the room kept (MARKET_VIEW_HEIGHT): the ladder scrolls where it is short. */}
      <div className="grid gap-4 lg:h-full lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[minmax(0,1fr)]">
        <PriceChart market={market} />
        <DepthLadder market={market} onPickPrice={onPickPrice} />
      </div>
    </Card>
  );
}
