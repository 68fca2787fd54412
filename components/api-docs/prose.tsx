import type { ReactNode } from "react";

/**
 * Code in a sentence or a cell, tinted on a card and on the page alike; it wraps anywhere, as
 * everything in the reference (DOC_STYLES).
 */
export const CODE = "rounded bg-slate-500/10 px-1 font-mono text-[0.85em]";

/**
 * The document's own sentences: `backticks` are code, as in its Markdown; an RFC's number is a
 * name, not an amount (the visits' number scan leaves data-raw-value alone).
 */
export function Prose({ text }: { text: string }): ReactNode {
  return text.split(/(`[^`]+`|RFC \d+)/).map((part, i) =>
    part.startsWith("`") ? (
      <code key={i} className={CODE}>
        {part.slice(1, -1)}
      </code>
    ) : part.startsWith("RFC ") ? (
      <span key={i} data-raw-value className="whitespace-nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}
