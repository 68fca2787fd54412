import type { ReactNode } from "react";

/**
 * A part of the page while its data loads: the shape of what will come, drawn with `Bar`s at
 * about the content's size so the page does not jump when it arrives. The shape is hidden from
 * assistive technology, which hears `label` instead, and the part is busy until replaced.
 * `className` lays out the shape (the content's own grid or spacing).
 */
export function LoadingShape({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="status" aria-busy="true">
      <span className="sr-only">{label}</span>
      <div aria-hidden className={className}>
        {children}
      </div>
    </div>
  );
}

/**
 * One bar of a skeleton, a line of text high unless told: the tables' loading row
 * (components/ui/data-table.tsx) on a card, a shade darker on the page's own background.
 */
export function Bar({ className = "h-5", onPage = false }: { className?: string; onPage?: boolean }) {
  return <div className={`animate-pulse rounded ${onPage ? "bg-slate-200" : "bg-surface-sunken"} ${className}`} />;
}

/** `count` bars one above the other, `gap` apart: a table's or a list's rows. */
export function Bars({ count, className, gap = "gap-4" }: { count: number; className?: string; gap?: string }) {
  return (
    <div className={`flex flex-col ${gap}`}>
      {Array.from({ length: count }, (_, i) => (
        <Bar key={i} className={className} />
      ))}
    </div>
  );
}
