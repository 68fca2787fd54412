"use client";

import { useCallback, useMemo, useState, type ReactNode, type Ref } from "react";
import { Time } from "@/lib/client/time-zone";

/**
 * Rows a person opened: each starts closed, so a page of records is a row each; a click flips it.
 * Kept by row key, so a refresh of the data keeps what is open.
 */
export function useOpenRows<T>(keyOf: (row: T) => string) {
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const isOpen = useMemo(() => (row: T) => opened.has(keyOf(row)), [opened, keyOf]);
  const toggle = useCallback(
    (row: T) =>
      setOpened((t) => {
        const next = new Set(t);
        const key = keyOf(row);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    [keyOf],
  );
  return { isOpen, toggle };
}

/** The ▸/▾ button that shows or hides a row's details (`controls`: the ids of the rows it opens). */
export function ExpandButton({
  open,
  controls,
  label,
  onClick,
}: {
  open: boolean;
  controls: string;
  label: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={controls}
      aria-label={label}
      onClick={onClick}
      className="rounded px-1 text-ink-muted hover:bg-surface-sunken hover:text-ink"
    >
      <span aria-hidden>{open ? "▾" : "▸"}</span>
    </button>
  );
}

/** Label and value pairs of a row's details, wrapping to the width there is. */
export function DetailList({ children }: { children: ReactNode }) {
  return <dl className="flex flex-wrap items-center gap-x-4 gap-y-1">{children}</dl>;
}

/** A label and its value; `ref` on its box (a part that loads once it is seen observes it). */
export function DetailItem({
  label,
  children,
  ref,
}: {
  label: string;
  children: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div ref={ref} className="flex min-w-0 items-center gap-1.5">
      <dt className="whitespace-nowrap text-ink-muted">{label}</dt>
      <dd className="min-w-0 break-all">{children}</dd>
    </div>
  );
}

/** A record's metadata as key=value chips; nothing when it has none. */
export function MetadataItem({ metadata }: { metadata: Record<string, unknown> | undefined }) {
  if (!metadata || Object.keys(metadata).length === 0) return null;
  return (
    <DetailItem label="Metadata">
      <span className="inline-flex flex-wrap gap-1">
        {Object.entries(metadata).map(([k, v]) => (
          <code key={k} className="rounded bg-surface-sunken px-1.5 py-0.5">
            {k}={String(v)}
          </code>
        ))}
      </span>
    </DetailItem>
  );
}

/** An id in full, in monospace, when the record has one. */
export function IdItem({ label, id }: { label: string; id: string | null | undefined }) {
  if (!id) return null;
  return (
    <DetailItem label={label}>
      <span className="font-mono">{id}</span>
    </DetailItem>
  );
}

/**
 * A row's identity, first in the row: when it happened and what it is (`children`, beneath),
 * after the button that opens its details where it has one.
 */
export function RowIdentity({
  at,
  expand,
  children,
}: {
  at: string;
  expand?: { open: boolean; controls: string; label: string; onClick: () => void };
  children: ReactNode;
}) {
  return (
    <div className="flex items-start gap-1.5">
      {expand && <ExpandButton {...expand} />}
      <div className="leading-tight">
        <Time iso={at} />
        <div className="text-xs">{children}</div>
      </div>
    </div>
  );
}
