"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { Field, inputClass } from "./field";

export interface Option {
  value: string;
  label: string;
}

/**
 * A labelled toolbar of filters with "Clear filters", enabled while any filter is set, and what
 * goes `after` it on its line, outside the toolbar (the technical columns' switch: one line less
 * above the rows).
 */
export function FilterBar({
  label,
  active,
  onClear,
  after,
  children,
}: {
  label: string;
  active: boolean;
  onClear: () => void;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    // One line of controls, `after` on it too, but outside the toolbar: a filter found by its
    // label inside the toolbar ("Status") is never the technical switch ("… status codes …").
    <div className="mb-3 flex flex-wrap items-end gap-3">
      <div role="toolbar" aria-label={label} className="contents">
        {children}
        {/* Always there (disabled while nothing is filtered), so the toolbar never reflows. */}
        <Button variant="ghost" onClick={onClear} disabled={!active}>
          Clear filters
        </Button>
      </div>
      {after}
    </div>
  );
}

/**
 * Marks a table's primary filter: the page's "/" shortcut focuses `[data-table-filter]`.
 * Spread on the control: `{...primaryFilter(primary)}`.
 */
const primaryFilter = (primary: boolean | undefined) => (primary ? { "data-table-filter": "" } : {});

/** One filter: a native select (keyboard and screen readers for free), "" meaning all. */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  allLabel = "All",
  className = "w-40",
  primary,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (Option | string)[];
  allLabel?: string;
  className?: string;
  /** The filter "/" focuses. */
  primary?: boolean;
}) {
  return (
    <Field label={label} className={className}>
      {({ id }) => (
        <select
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className={inputClass(false)}
          {...primaryFilter(primary)}
        >
          <option value="">{allLabel}</option>
          {options.map((o) => {
            const { value: v, label: l } = typeof o === "string" ? { value: o, label: o } : o;
            return (
              <option key={v} value={v}>
                {l}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

/** A free-text or date filter (text with suggestions from a datalist), applied by the caller as typed. */
export function FilterInput({
  label,
  value,
  onChange,
  suggestions = [],
  type = "text",
  placeholder,
  className = "w-56",
  primary,
  error,
  inputMode,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  suggestions?: readonly string[];
  type?: "text" | "email" | "search" | "date";
  placeholder?: string;
  className?: string;
  /** The filter "/" focuses. */
  primary?: boolean;
  /** Why the value cannot filter, said under the field. */
  error?: string;
  inputMode?: "numeric";
}) {
  return (
    <Field label={label} className={className} error={error}>
      {({ id, describedBy, invalid }) => (
        <>
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            inputMode={inputMode}
            type={type}
            value={value}
            placeholder={placeholder}
            onChange={(e) => onChange(e.target.value)}
            list={suggestions.length > 0 ? `${id}-list` : undefined}
            autoComplete="off"
            className={inputClass(invalid)}
            {...primaryFilter(primary)}
          />
          {suggestions.length > 0 && (
            <datalist id={`${id}-list`}>
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          )}
        </>
      )}
    </Field>
  );
}
