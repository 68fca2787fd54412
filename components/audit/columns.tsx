"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { RowIdentity } from "@/components/ui/row-details";
import { AUDIT_ACTION_WORDS, type AuditEntryView } from "@/lib/shared/audit-events";
import { AuditDetails } from "./audit-details";

/** The audit trail's columns: when (and its place in the chain), the event in words, who, about what, the detail. */
export const AUDIT_COLUMNS: ColumnDef<AuditEntryView, unknown>[] = [
  {
    id: "when",
    header: "Time",
    meta: { sticky: "left", label: "", sortHint: "Newest first" },
    cell: ({ row }) => (
      <RowIdentity at={row.original.at}>
        <span className="text-ink-muted">#{row.original.seq}</span>
      </RowIdentity>
    ),
  },
  {
    id: "event",
    header: "Event",
    cell: ({ row }) => (
      <span title={row.original.action} className="whitespace-nowrap">
        {AUDIT_ACTION_WORDS[row.original.action] ?? row.original.action}
      </span>
    ),
  },
  {
    id: "who",
    header: "Who",
    cell: ({ row }) =>
      row.original.actor_email ? (
        <span className="leading-tight">
          {row.original.actor_email}
          <span className="block text-xs text-ink-muted">
            {row.original.actor_role ?? "—"}
            {row.original.ip ? ` · ${row.original.ip}` : ""}
          </span>
        </span>
      ) : (
        <span className="text-ink-muted">the dashboard</span>
      ),
  },
  {
    id: "subject",
    header: "About",
    cell: ({ row }) => (
      <span className="block max-w-48 truncate font-mono text-xs" title={row.original.subject ?? undefined}>
        {row.original.subject ?? "—"}
      </span>
    ),
  },
  {
    id: "detail",
    header: "Detail",
    cell: ({ row }) => <AuditDetails detail={row.original.detail} />,
  },
];
