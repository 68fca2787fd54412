/**
 * Where a part of the page that is drawn only in the browser will appear, at its final size
 * (`className` gives the height), so nothing moves when it arrives.
 */
export function Skeleton({ className }: { className: string }) {
  return <div aria-hidden className={`animate-pulse rounded-lg border border-slate-200 bg-surface ${className}`} />;
}
