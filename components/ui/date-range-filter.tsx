"use client";

import { dayRangeProblems } from "@/lib/shared/date-range";
import { useTimeZone } from "@/lib/client/time-zone";
import { FilterInput } from "./filter-bar";

/**
 * From and To days, read in the time zone the person chose in the header (UTC or local) and
 * named in their labels, both days included; `dayStart` and `dayEnd` (lib/shared/date-range.ts)
 * turn them into the instants the back end filters on. Days are written as the tables write
 * them ("2026-11-25"), never in the browser's mm/dd/yyyy; a malformed day or a From after To
 * is said on its field.
 */
export function DateRangeFilter({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (range: { from?: string; to?: string }) => void;
}) {
  const { zone } = useTimeZone();
  const where = zone === "UTC" ? "UTC" : "local";
  const problems = dayRangeProblems(from, to);
  return (
    <>
      <FilterInput
        label={`From (${where})`}
        value={from}
        placeholder="YYYY-MM-DD"
        inputMode="numeric"
        onChange={(v) => onChange({ from: v })}
        className="w-40"
        error={problems.from}
      />
      <FilterInput
        label={`To (${where})`}
        value={to}
        placeholder="YYYY-MM-DD"
        inputMode="numeric"
        onChange={(v) => onChange({ to: v })}
        className="w-40"
        error={problems.to}
      />
    </>
  );
}
