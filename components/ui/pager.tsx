"use client";

import { Button } from "./button";

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
