import { Fragment } from "react";
import type { JournalEntry } from "@/lib/shared/journal-entry";
import { Time } from "@/lib/client/time-zone";

type Submitter = Pick<JournalEntry, "user_email" | "user_role" | "approval">;

/**
 * Who sent a create, from the journal, and who approved it when it waited for four eyes. "—"
 * when the journal has no entry: the record was made outside the dashboard (directly at the service).
 * The approval is stacked, its time under its approver: on one line it set its column's width,
 * and pushed a table's amount and status out of a laptop's view (issue 26).
 */
export function SubmitterCell({ entry, loading }: { entry: Submitter | undefined; loading: boolean }) {
  if (entry) {
    return (
      <>
        {entry.user_email} <span className="text-xs text-ink-muted">{entry.user_role}</span>
        <ApprovedBy entry={entry} className="block text-xs" stacked />
      </>
    );
  }
  return loading ? <span aria-label="Loading">…</span> : "—";
}

/**
 * "approved by approver@example.com, 2026-11-25 14:02:11 UTC": nothing for a create sent without
 * approval. `stacked`: each approval's time on a line of its own (the text reads the same).
 */
export function ApprovedBy({
  entry,
  className = "",
  stacked = false,
}: {
  entry: Submitter;
  className?: string;
  stacked?: boolean;
}) {
  const votes = entry.approval?.approved_by ?? [];
  if (votes.length === 0) return null;
  return (
    <span className={className} data-testid="approved-by">
      {votes.map((v, i) => (
        <Fragment key={v.by}>
          {i === 0 ? "approved by " : " and "}
          {v.by},{" "}
          <span className={stacked ? "block" : undefined}>
            <Time iso={v.at} />
          </span>
        </Fragment>
      ))}
    </span>
  );
}
