import { useId, type ReactNode } from "react";

export interface FieldProps {
  label: string;
  /** The rule that refused the value, shown under the field and announced. */
  error?: string;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
  className?: string;
}

/** A labelled control with its hint and error wired for screen readers. */
export function Field({ label, error, hint, children, className = "" }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      <div className="mt-1">{children({ id, describedBy, invalid: Boolean(error) })}</div>
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-ink-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="mt-1 text-xs font-medium text-sell">
          {error}
        </p>
      )}
    </div>
  );
}

export const inputClass = (invalid: boolean) =>
  `block w-full rounded-md border bg-surface px-3 py-2 text-sm shadow-sm tabular-nums ${
    invalid ? "border-sell ring-1 ring-sell" : "border-slate-300"
  } disabled:bg-surface-sunken disabled:text-ink-muted`;
