"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";

/**
 * A table's filters kept in the page's URL, so a view can be bookmarked, shared and reloaded.
 * Each filter names the values it accepts (null: any text); anything else in the URL reads as
 * "" (all), so a hand-edited link never sends the back end a value it refuses.
 */
export type FilterSpec<K extends string> = Record<K, readonly string[] | null>;
export type Filters<K extends string> = Record<K, string>;

/** The filters `spec` names, read from `params`. */
export function filtersFrom<K extends string>(params: URLSearchParams, spec: FilterSpec<K>): Filters<K> {
  const entries = (Object.keys(spec) as K[]).map((k) => {
    const value = params.get(k) ?? "";
    const allowed = spec[k];
    return [k, allowed && !allowed.includes(value) ? "" : value] as const;
  });
  return Object.fromEntries(entries) as Filters<K>;
}

/** `params` with `filters` written over them: set ones replaced, blank ones removed, others kept. */
export function withFilters<K extends string>(params: URLSearchParams, filters: Partial<Filters<K>>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [k, v] of Object.entries(filters) as [K, string | undefined][]) {
    if (v) next.set(k, v);
    else next.delete(k);
  }
  return next;
}

export function useUrlFilters<K extends string>(spec: FilterSpec<K>) {
  const params = useSearchParams();
  // Next applies a replaceState to useSearchParams in a later render, so a controlled checkbox
  // or field would show its old value in between. The change is shown at once instead, for as
  // long as the URL Next reports is still the one it was made from.
  const [pending, setPending] = useState<{ from: string; next: URLSearchParams } | null>(null);
  const current = pending && pending.from === params.toString() ? pending.next : params;
  const filters = useMemo(() => filtersFrom(current, spec), [current, spec]);
  // The browser's own replaceState: Next keeps useSearchParams in step without asking the
  // server for the page again, and the view is not pushed onto the history at each change.
  const update = useCallback(
    (change: Partial<Filters<K>>) => {
      const next = withFilters(new URLSearchParams(window.location.search), change);
      setPending({ from: params.toString(), next });
      const search = next.toString();
      window.history.replaceState(null, "", `${window.location.pathname}${search ? `?${search}` : ""}`);
    },
    [params],
  );
  const clear = useCallback(
    () => update(Object.fromEntries(Object.keys(spec).map((k) => [k, ""])) as Partial<Filters<K>>),
    [spec, update],
  );
  return { filters, update, clear, active: Object.values<string>(filters).some(Boolean) };
}
