"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { SubmitterCell } from "@/components/ui/submitter-cell";
import { outcomeOf, recordStatusOf, resultOf, type ActivityEntry } from "@/lib/shared/activity-outcome";
import { ACTION_WORDS, askedOf, describeAsked } from "@/lib/shared/activity-rows";
import { RowIdentity } from "@/components/ui/row-details";
import { ResultBadge } from "./result-badge";

/**
 * The activity table's columns: when and who, the action, its profiles, what was asked and
 * what came of it, in words; the HTTP answer, latency, ids and the service's exact statuses
 * (when answered, and now) behind "Show technical columns".
 */

export function activityColumns(nickname: (profileId: string) => string): ColumnDef<ActivityEntry, unknown>[] {
  return [
    {
      id: "when_who",
      header: "Time and who",
      meta: { sticky: "left", label: "", sortHint: "Newest first" },
      cell: ({ row }) => (
        <RowIdentity at={row.original.created_at}>
          <SubmitterCell entry={row.original} loading={false} />
        </RowIdentity>
      ),
    },
    {
      id: "action",
      header: "Action",
      cell: ({ row }) => ACTION_WORDS[row.original.kind] ?? row.original.kind,
    },
    {
      id: "profile",
      header: "Profile",
      cell: ({ row }) =>
        nickname(row.original.profile_id) +
        (row.original.to_profile_id ? ` → ${nickname(row.original.to_profile_id)}` : ""),
    },
    {
      id: "asked",
      header: "What was asked",
      cell: ({ row }) => <Asked entry={row.original} />,
    },
    {
      id: "outcome",
      header: "Outcome",
      cell: ({ row }) => <Outcome entry={row.original} />,
    },
  ];
}

/** The developer's view of an entry: the HTTP answer, how long it took, the ids to grep for. */
export const ACTIVITY_TECHNICAL_COLUMNS: ColumnDef<ActivityEntry, unknown>[] = [
  {
    id: "http_status",
    header: "HTTP",
    meta: { align: "right" },
    cell: ({ row }) => row.original.http_status ?? "—",
  },
  {
    id: "latency",
    header: "Latency",
    meta: { align: "right" },
    cell: ({ row }) => (row.original.latency_ms === null ? "—" : `${row.original.latency_ms} ms`),
  },
  {
    id: "record_status",
    header: "Status when answered",
    cell: ({ row }) => <span className="font-mono text-xs">{recordStatusOf(row.original) || "—"}</span>,
  },
  {
    id: "record_status_now",
    header: "Status now",
    cell: ({ row }) => <span className="font-mono text-xs">{row.original.record_status_now || "—"}</span>,
  },
  {
    id: "ref_id",
    header: "Ref ID",
    cell: ({ row }) => <span className="font-mono text-xs">{row.original.ref_id}</span>,
  },
  {
    id: "result_id",
    header: "Result ID",
    cell: ({ row }) =>
      row.original.result_id ? (
        <span className="block max-w-24 truncate font-mono text-xs text-ink-muted" title={row.original.result_id}>
          {row.original.result_id}
        </span>
      ) : (
        "—"
      ),
  },
];

function Asked({ entry }: { entry: ActivityEntry }) {
  const asked = askedOf(entry);
  const words = describeAsked(asked);
  if (entry.kind !== "cancel") return <>{words || "—"}</>;
  return (
    <>
      Cancel order{" "}
      <span className="font-mono text-xs" title={asked.order_id} data-raw-value="">
        {asked.order_id.slice(0, 8)}
      </span>
      {words ? <span className="block text-xs text-ink-muted">{words}</span> : null}
    </>
  );
}

/** The result's badge and what came of it; a problem's detail names profiles by nickname (the server's list does). */
function Outcome({ entry }: { entry: ActivityEntry }) {
  const result = resultOf(entry);
  const turnedDown = result === "failed" || result === "rejected";
  return (
    <div className="min-w-40 max-w-md whitespace-normal">
      <span className="inline-flex items-center gap-1.5">
        <ResultBadge result={result} />
        <span className={turnedDown ? "font-semibold text-sell" : ""}>{outcomeOf(entry)}</span>
      </span>
      {entry.problem?.detail && <span className="block text-xs text-sell">{entry.problem.detail}</span>}
    </div>
  );
}
