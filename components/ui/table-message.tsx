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
