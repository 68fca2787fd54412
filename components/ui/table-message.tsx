import type { ReactNode } from "react";
import { problemOf } from "@/lib/client/api";
import { Button } from "./button";
import { ProblemAlert } from "./problem-alert";

/** The content of an empty or error state (DataTable gives it the loading rows' height). */
export function TableMessage({ children }: { children: ReactNode }) {
  return <div className="flex flex-col items-center gap-3">{children}</div>;
}

/** A failed load, in words, with a way to try again. */
export function TableError({ error, what, onRetry }: { error: unknown; what: string; onRetry: () => void }) {
  return (
    <TableMessage>
      <div className="w-full max-w-lg text-left">
        <ProblemAlert problem={problemOf(error)} title={`Could not load ${what}`} />
      </div>
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </TableMessage>
  );
}

/** What a table's list query says while it loads or fails. */
interface ListQuery {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  data: unknown;
  error: unknown;
  refetch: () => unknown;
}

/**
 * A table's query as the table shows it: `loading` until the first page, and the error with
 * "Try again" while nothing is shown (a failed refresh keeps the rows it had).
 */
export const tableStateOf = (query: ListQuery, what: string) => ({
  loading: query.isPending,
  error:
    query.isError && !query.data ? (
      <TableError error={query.error} what={what} onRetry={() => void query.refetch()} />
    ) : undefined,
});

/** Around a table: busy while its query fetches, dimmed while the last page stands in for the next. */
export function FetchShade({ query, children }: { query: ListQuery; children: ReactNode }) {
  return (
    <div aria-busy={query.isFetching} className={query.isPlaceholderData ? "opacity-60 transition-opacity" : ""}>
      {children}
    </div>
  );
}
