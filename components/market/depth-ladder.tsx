"use client";

import { useLayoutEffect, useRef, useState } from "react";
import { formatAmount, formatAsset } from "@/lib/shared/format";
import { barShare, LADDER_DEPTH, ladderOf, type LadderLevel } from "@/lib/shared/order-book";
import { useOrderBook } from "@/lib/client/queries";
import type { Market } from "@/lib/spec/enums";
import { MARKET_DETAILS } from "@/lib/spec/markets";

type Side = "ask" | "bid";

/**
 * The order book's top levels: asks above (best, lowest, nearest the spread), bids below, each
 * with its size and the running total from the best price. Where prices jump far (a bid at
 * 30,000 under bids near 65,000) a gap row says how far, and the depth bars are drawn against
 * the levels near the price, so a far, deep level does not flatten them. A price is a button
 * that fills the ticket's price when there is a ticket to fill.
 */
export function DepthLadder({ market, onPickPrice }: { market: Market; onPickPrice?: (price: string) => string }) {
  const book = useOrderBook(market);
  const [said, setSaid] = useState("");
  const { base_asset: base, quote_asset: quote, tick_rate } = MARKET_DETAILS[market];
  const ladder = book.data && ladderOf(book.data, LADDER_DEPTH, tick_rate);
  const pick = onPickPrice && ((price: string) => setSaid(onPickPrice(price)));
  const { box, spread, scrolls } = useCentredOnSpread(market, Boolean(book.data));

  const gap = (side: Side, level: LadderLevel) => (
    <tr key={`${side}-gap:${level.price}`} data-testid="depth-gap">
      <td colSpan={3} className="py-0.5 text-center leading-4 text-ink-muted">
        ⋯ gap of {formatAmount(level.gapBefore, { min: 2 })} {quote} ⋯
      </td>
    </tr>
  );
  const row = (side: Side, level: LadderLevel) => [
    level.gapBefore && gap(side, level),
    <tr key={`${side}:${level.price}`} data-side={side} className="relative">
      <td className="py-0.5 pr-2">
        {pick ? (
          <button
            type="button"
            onClick={() => pick(level.price)}
            aria-label={`Use the ${side} price ${formatAmount(level.price, { min: 2 })}`}
            className={`rounded px-1 font-mono tabular-nums hover:bg-slate-100 ${side === "ask" ? "text-sell" : "text-buy"}`}
          >
            {formatAmount(level.price, { min: 2 })}
          </button>
        ) : (
          <span className={`px-1 font-mono tabular-nums ${side === "ask" ? "text-sell" : "text-buy"}`}>
            {formatAmount(level.price, { min: 2 })}
          </span>
        )}
      </td>
      <td className="py-0.5 pl-2 text-right font-mono tabular-nums">{formatAsset(level.amount, base)}</td>
      <td
        className="py-0.5 pl-2 text-right font-mono tabular-nums"
        style={{
          backgroundImage: `linear-gradient(to left, var(--color-${side === "ask" ? "sell" : "buy"}-soft) ${barShare(level.total, ladder?.barScale) * 100}%, transparent 0)`,
        }}
      >
        {formatAsset(level.total, base)}
      </td>
    </tr>,
  ];
  // A side's rows: its levels and the gap markers between them.
  const rowsOf = (levels: LadderLevel[] | undefined) => (levels ?? []).reduce((n, l) => n + (l.gapBefore ? 2 : 1), 0);

  // Empty rows up to the depth keep the ladder one height however deep the book: nothing below it moves.
  const filler = (side: Side, count: number) =>
    Array.from({ length: Math.max(0, LADDER_DEPTH - count) }, (_, i) => (
      <tr key={`${side}-empty-${i}`} aria-hidden>
        <td colSpan={3} className="py-0.5 leading-4">
          &nbsp;
        </td>
      </tr>
    ));

  return (
    <div className="flex min-h-0 min-w-0 flex-col text-xs">
      {/* Where the room is short (beside the ticket on a laptop) the levels scroll, the spread
          in the middle; a box that scrolls is reachable by keyboard. */}
      <div
        ref={box}
        className="min-h-0 flex-1 overflow-y-auto"
        data-testid="depth-ladder-box"
        {...(scrolls ? { tabIndex: 0, role: "region", "aria-label": "Order book levels, scrollable" } : {})}
      >
        <table
          className="w-full"
          aria-label={`Order book, top ${LADDER_DEPTH} levels each side`}
          data-testid="depth-ladder"
        >
          <thead className="sticky top-0 z-10 bg-surface">
            <tr className="text-ink-muted">
              <th scope="col" className="pb-1 pl-1 text-left font-medium">
                Price ({quote})
              </th>
              <th scope="col" className="pb-1 text-right font-medium">
                Size ({base})
              </th>
              <th scope="col" className="pb-1 text-right font-medium">
                Total ({base})
              </th>
            </tr>
          </thead>
          <tbody>
            {filler("ask", rowsOf(ladder?.asks))}
            {ladder?.asks.toReversed().flatMap((level) => row("ask", level).toReversed())}
          </tbody>
          <tbody>
            <tr ref={spread}>
              <td colSpan={3} className="border-y border-slate-200 py-1 text-center text-ink-muted">
                {!book.data
                  ? "Loading the book…"
                  : ladder?.spread
                    ? `Spread ${formatAmount(ladder.spread, { min: 2 })} ${quote}`
                    : "One side of the book is empty"}
              </td>
            </tr>
          </tbody>
          <tbody>
            {ladder?.bids.flatMap((level) => row("bid", level))}
            {filler("bid", rowsOf(ladder?.bids))}
          </tbody>
        </table>
      </div>
      <p role="status" data-testid="depth-ladder-status" className="mt-2 min-h-4 text-ink-muted">
        {said || (pick ? "Pick a price to put it on the ticket." : "")}
      </p>
    </div>
  );
}

/**
 * The ladder's scroll box, scrolled once per market so that the spread sits in its middle: the
 * ladder keeps its height however deep the book (filler rows), so it stays there as levels
 * change. `scrolls` says whether the box is shorter than the ladder.
 */
function useCentredOnSpread(market: Market, loaded: boolean) {
  const box = useRef<HTMLDivElement>(null);
  const spread = useRef<HTMLTableRowElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => setScrolls(el.scrollHeight > el.clientHeight + 1);
    const observer = new ResizeObserver(update);
    observer.observe(el);
    update();
    return () => observer.disconnect();
  }, []);
  useLayoutEffect(() => {
    const el = box.current;
    const row = spread.current;
    if (!el || !row || !loaded) return;
    const [at, of] = [row.getBoundingClientRect(), el.getBoundingClientRect()];
    el.scrollTop += at.top + at.height / 2 - (of.top + el.clientHeight / 2);
  }, [market, loaded]);
  return { box, spread, scrolls };
}
