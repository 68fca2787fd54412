/**
 * The line under a table that says what its page holds, honestly: the service reports no
 * totals, so a page says how many it shows and whether there are more; a list the back end
 * walked (a filter or sort the service does not have) says how many records it read for them.
 */
export interface SummaryInput {
  shown: number;
  /** Singular and plural, "order" / "orders". */
  noun: readonly [string, string];
  hasNext: boolean;
  /** Records the back end read from the service for this page; undefined when it read none extra. */
  scanned?: number;
  /** The walk stopped at the scan cap before the page was full. */
  truncated?: boolean;
}

const count = (n: number) => n.toLocaleString("en-US");

export function listSummary({ shown, noun, hasNext, scanned, truncated }: SummaryInput): string {
  const what = `${count(shown)} ${shown === 1 ? noun[0] : noun[1]}`;
  if (scanned === undefined) return `${what} shown${hasNext ? " · more on the next page" : ""}`;
  const read = `${what} matched of ${count(scanned)} read`;
  if (truncated) return `${read} · stopped reading there; Next reads on`;
  return `${read}${hasNext ? " · more on the next page" : ""}`;
}
