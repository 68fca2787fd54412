"use client";

import { useState } from "react";
import { formatAmount, formatAsset } from "@/lib/client/format";
import { LADDER_DEPTH, ladderOf, type LadderLevel } from "@/lib/client/order-book";
import { useOrderBook } from "@/lib/client/queries";
import type { Market } from "@/lib/spec/enums";
import { MARKET_DETAILS } from "@/lib/spec/markets";

type Side = "ask" | "bid";

/**
 * The order book's top levels: asks above (best, lowest, nearest the spread), bids below, each
 * with its size and the running total from the best price. A price is a button that fills
 * the ticket's price when there is a ticket to fill.
 */
export function DepthLadder({ market, onPickPrice }: { market: Market; onPickPrice?: (price: string) => string }) {
  const book = useOrderBook(market);
  const [said, setSaid] = useState("");
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[market];
  const ladder = book.data && ladderOf(book.data);
  // The depth bars' widths are drawing, not money: a number is fine for a percentage.
  const deepest = Math.max(Number(ladder?.asks.at(-1)?.total ?? 0), Number(ladder?.bids.at(-1)?.total ?? 0), 1e-18);
  const pick = onPickPrice && ((price: string) => setSaid(onPickPrice(price)));

  const row = (side: Side, level: LadderLevel) => (
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
          backgroundImage: `linear-gradient(to left, var(--color-${side === "ask" ? "sell" : "buy"}-soft) ${(Number(level.total) / deepest) * 100}%, transparent 0)`,
        }}
      >
        {formatAsset(level.total, base)}
      </td>
    </tr>
  );

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
    <div className="min-w-0 text-xs">
      <table
        className="w-full"
        aria-label={`Order book, top ${LADDER_DEPTH} levels each side`}
        data-testid="depth-ladder"
      >
        <thead>
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
          {filler("ask", ladder?.asks.length ?? 0)}
          {ladder?.asks.toReversed().map((level) => row("ask", level))}
        </tbody>
        <tbody>
          <tr>
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
          {ladder?.bids.map((level) => row("bid", level))}
          {filler("bid", ladder?.bids.length ?? 0)}
        </tbody>
      </table>
      <p role="status" data-testid="depth-ladder-status" className="mt-2 min-h-4 text-ink-muted">
        {said || (pick ? "Pick a price to put it on the ticket." : "")}
      </p>
    </div>
  );
}
