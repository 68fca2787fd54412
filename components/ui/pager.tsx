"use client";

import { useState } from "react";
import { currentPage, firstPage, popPage, pushPage, type CursorStack } from "@/lib/client/cursor-stack";
import { Button } from "./button";

/**
 * A cursor stack that starts over at page 1 whenever `resetKey` (the filters) changes,
 * since a cursor is only meaningful for the query that issued it.
 */
export function useCursorPager(resetKey: string) {
  const [state, setState] = useState<{ key: string; stack: CursorStack }>({ key: resetKey, stack: firstPage() });
  // Reset during render (React's "adjust state when a prop changes"), not in an effect: no stale fetch.
  if (state.key !== resetKey) setState({ key: resetKey, stack: firstPage() });
  const stack = state.key === resetKey ? state.stack : firstPage();
  const page = currentPage(stack);
  return {
    cursor: page.cursor,
    carry: page.carry,
    page: stack.length,
    hasPrevious: stack.length > 1,
    next: (cursor: string | null | undefined, carry?: readonly string[]) =>
      setState((s) => ({ ...s, stack: pushPage(s.stack, cursor, carry) })),
    previous: () => setState((s) => ({ ...s, stack: popPage(s.stack) })),
  };
}

/** Previous/Next over server cursors, with the page number and what the page holds. */
export function Pager({
  label,
  page,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  busy,
  summary,
}: {
  label: string;
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  busy?: boolean;
  summary?: string;
}) {
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
      <p className="text-ink-muted tabular-nums" aria-live="polite">
        Page {page}
        {summary ? ` · ${summary}` : ""}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" onClick={onPrevious} disabled={!hasPrevious || busy}>
          <span aria-hidden>←</span> Previous
        </Button>
        <Button variant="secondary" onClick={onNext} disabled={!hasNext || busy}>
          Next <span aria-hidden>→</span>
        </Button>
      </div>
    </nav>
  );
}
