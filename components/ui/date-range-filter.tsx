"use client";

import { useTimeZone } from "@/lib/client/time-zone";
import { FilterInput } from "./filter-bar";

/**
 * From and To days, read in the time zone the person chose in the header (UTC or local) and
 * named in their labels, both days included; `dayStart` and `dayEnd` (lib/client/date-range.ts)
 * turn them into the instants the back end filters on.
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
  return (
    <>
      <FilterInput
        label={`From (${where})`}
        type="date"
        value={from}
        onChange={(v) => onChange({ from: v })}
        className="w-40"
      />
      <FilterInput
        label={`To (${where})`}
        type="date"
        value={to}
        onChange={(v) => onChange({ to: v })}
        className="w-40"
      />
    </>
  );
}
