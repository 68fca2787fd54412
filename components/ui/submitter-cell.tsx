import type { JournalEntry } from "@/lib/shared/journal-entry";

/**
 * Who sent a create, from the journal. "—" when the journal has no entry: the record was
 * made outside the dashboard (directly at the service).
 */
export function SubmitterCell({
  entry,
  loading,
}: {
  entry: Pick<JournalEntry, "user_email" | "user_role"> | undefined;
  loading: boolean;
}) {
  if (entry) {
    return (
      <>
        {entry.user_email} <span className="text-xs text-ink-muted">{entry.user_role}</span>
      </>
    );
  }
  return loading ? <span aria-label="Loading">…</span> : "—";
}
