import { query } from "@/lib/client/api";
import { CsvLink } from "./csv-link";
import { LiveIndicator } from "./live-indicator";

/**
 * A table's header actions, the same on every table: how often it refreshes, and Export CSV
 * of every row matching `filters` (the list route's own filters, sent to `exportPath`).
 */
export function TableActions({
  live,
  pushed = false,
  exportPath,
  filters,
}: {
  live?: boolean;
  /** The table's changes are pushed while the live stream is up (orders, transfers). */
  pushed?: boolean;
  exportPath: string;
  filters: Record<string, string | string[] | undefined>;
}) {
  return (
    <div className="flex flex-wrap items-center justify-end gap-x-3 gap-y-1">
      {live !== undefined && <LiveIndicator live={live} pushed={pushed} />}
      <CsvLink href={`${exportPath}${query(filters)}`} label="Export CSV (all matching)" />
    </div>
  );
}
