"use client";

import { useProfileNames } from "@/lib/client/profile-names";
import { auditDetailWords } from "./audit-words";

/**
 * An audit entry's detail in words (components/audit/audit-words.ts): the first line shown,
 * the rest and the exact record on demand.
 */
export function AuditDetails({ detail }: { detail: Record<string, unknown> }) {
  const { nickname } = useProfileNames();
  const lines = auditDetailWords(detail, nickname);
  const [first, ...rest] = lines;
  // The table keeps cells on one line; a detail wraps in its own width, long tokens too.
  return (
    <details className="max-w-md text-xs whitespace-normal wrap-anywhere" data-testid="audit-detail">
      <summary className="cursor-pointer">{first ?? "details"}</summary>
      {rest.length > 0 && (
        <ul className="mt-1 list-disc space-y-0.5 pl-4">
          {rest.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      )}
      <details className="mt-1">
        <summary className="cursor-pointer text-ink-muted">Exact record</summary>
        <pre className="mt-1 overflow-x-auto whitespace-pre-wrap break-all">{JSON.stringify(detail, null, 2)}</pre>
      </details>
    </details>
  );
}
