"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { useBatches } from "@/lib/client/batches";
import { Time } from "@/lib/client/time-zone";
import { isOpenBatch, type Batch } from "@/lib/shared/batch";
import { formatCount } from "@/lib/shared/format";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { DataTable } from "../ui/data-table";
import { LiveIndicator } from "../ui/live-indicator";
import { StatusBadge } from "../ui/status-badge";
import { TableError, TableMessage } from "../ui/table-message";
import { totalsInWords } from "@/lib/shared/describe-batch";

/**
 * The batches, newest first, each with what came of it: its status, its rows sent, failed and
 * skipped, when and by whom; Open shows its results (`onOpen`).
 */
export function PastBatches({ openId, onOpen }: { openId: string | null; onOpen: (batch: Batch) => void }) {
  const list = useBatches();
  const columns = useMemo(() => batchColumns(openId, onOpen), [openId, onOpen]);
  return (
    <Card
      title="Past batches"
      actions={<LiveIndicator live={list.data?.some((b) => isOpenBatch(b.status)) ?? false} pushed />}
    >
      <DataTable
        caption="Batches, newest first"
        columns={columns}
        data={list.data}
        loading={list.isPending}
        error={list.isError ? <TableError error={list.error} what="the batches" onRetry={list.refetch} /> : undefined}
        empty={<TableMessage>No batches yet.</TableMessage>}
        rowKey={(b) => b.id}
        placeholderRows={4}
      />
    </Card>
  );
}

function batchColumns(openId: string | null, onOpen: (batch: Batch) => void): ColumnDef<Batch, unknown>[] {
  return [
    {
      id: "batch",
      header: "Batch",
      meta: { label: "", sticky: "left" },
      cell: ({ row: { original: b } }) => (
        <div className="leading-tight">
          <code className="font-mono text-xs break-all whitespace-normal">{b.ref_id}</code>
          <span className="block text-xs text-ink-muted">
            <Time iso={b.created_at} />
          </span>
        </div>
      ),
    },
    {
      id: "status",
      header: "Status",
      cell: ({ row: { original: b } }) => (
        <span data-testid="batch-row-status" data-status={b.status}>
          <StatusBadge status={b.status} />
        </span>
      ),
    },
    {
      id: "outcome",
      header: "Rows",
      cell: ({ row: { original: b } }) => {
        const c = b.counts;
        return (
          <span>
            {`${formatCount(c.sent)} sent · ${formatCount(c.failed)} failed · ${formatCount(c.skipped)} skipped`}
            {c.waiting > 0 && ` · ${formatCount(c.waiting)} waiting`}
          </span>
        );
      },
    },
    {
      id: "totals",
      header: "Totals",
      cell: ({ row: { original: b } }) => (
        <span className="block max-w-56 whitespace-normal">{totalsInWords(b.totals)}</span>
      ),
    },
    { id: "by", header: "Requested by", cell: ({ row: { original: b } }) => b.requested_by },
    {
      id: "open",
      header: () => <span className="sr-only">Actions</span>,
      meta: { label: "", sticky: "right" },
      cell: ({ row: { original: b } }) => (
        <Button
          size="sm"
          variant={b.id === openId ? "primary" : "secondary"}
          aria-label={`Open the results of batch ${b.ref_id}`}
          aria-pressed={b.id === openId}
          onClick={() => onOpen(b)}
        >
          Results
        </Button>
      ),
    },
  ];
}
