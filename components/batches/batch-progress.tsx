"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { useEffect, useMemo, useRef, useState } from "react";
import { problemOf } from "@/lib/client/api";
import { batchKeys, cancelBatch, resultsCsvPath, useBatch } from "@/lib/client/batches";
import { useProfileNames } from "@/lib/client/profile-names";
import { Time } from "@/lib/client/time-zone";
import { isOpenBatch, type Batch, type BatchRowView } from "@/lib/shared/batch";
import { formatAsset, formatCount } from "@/lib/shared/format";
import { namedProblem } from "@/lib/shared/named-profiles";
import { isProblem } from "@/lib/spec/problem";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { CsvLink } from "../ui/csv-link";
import { DataTable } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { ShortId } from "../ui/short-id";
import { StatusBadge } from "../ui/status-badge";
import { TableMessage } from "../ui/table-message";
import { useToast } from "../ui/toasts";
import { BATCH_STATUS_WORDS, doneRows, totalsInWords, transfersCount } from "@/lib/shared/describe-batch";

/**
 * One batch, followed as it is sent: a progress bar of the rows done, the counts as they move
 * (the live stream's `batch` events), and the results row by row (the transfer each row made,
 * or why it failed). While it is open its requester (or an admin) may cancel what is not sent
 * yet; the results download as CSV.
 */
export function BatchProgress({
  id,
  initial,
  me,
  focus,
  onClose,
}: {
  id: string;
  initial?: Batch;
  /** Focus moves to its title as it opens. */
  focus: boolean;
  me: { email: string; admin: boolean; canCreate: boolean };
  onClose: () => void;
}) {
  const query = useBatch(id, initial);
  const batch = query.data;
  useEndNotice(batch);
  const heading = useRef<HTMLSpanElement>(null);
  // A batch opened from the list is read from its start (one just sent leaves focus in the form, for the next).
  useEffect(() => {
    if (focus) heading.current?.focus({ preventScroll: true });
  }, [focus]);
  const title = (
    <span ref={heading} tabIndex={-1} className="break-all focus:outline-2 focus:outline-brand">
      {`Batch ${batch?.ref_id ?? ""}`}
    </span>
  );
  return (
    <div id="batch-progress" data-testid="batch-progress" data-status={batch?.status ?? ""}>
      <Card
        title={title}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            {batch && <CsvLink href={resultsCsvPath(batch.id)} label="Results CSV" />}
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        }
      >
        <div className="space-y-4">
          {query.isError && !batch && (
            <ProblemAlert problem={problemOf(query.error)} title="Could not load the batch" />
          )}
          {batch && <Summary batch={batch} me={me} />}
          <Results batch={batch} />
        </div>
      </Card>
    </div>
  );
}

/** A notice when the batch, followed open, ends. */
function useEndNotice(batch: Batch | undefined) {
  const notify = useToast();
  const seen = useRef<Batch["status"] | undefined>(batch?.status);
  useEffect(() => {
    if (!batch || batch.status === seen.current) return;
    const wasOpen = seen.current !== undefined && isOpenBatch(seen.current);
    seen.current = batch.status;
    if (!wasOpen || isOpenBatch(batch.status)) return;
    const { sent, failed, skipped } = batch.counts;
    const detail = `${formatCount(sent)} sent, ${formatCount(failed)} failed, ${formatCount(skipped)} skipped.`;
    notify({
      title: `Batch ${batch.ref_id}: ${BATCH_STATUS_WORDS[batch.status].toLowerCase()}`,
      detail,
      tone: batch.status === "COMPLETED" && failed === 0 ? "success" : "warning",
      key: `batch:${batch.id}`,
    });
  }, [batch, notify]);
}

function Summary({ batch, me }: { batch: Batch; me: { email: string; admin: boolean; canCreate: boolean } }) {
  const total = batch.counts.waiting + doneRows(batch.counts);
  const done = doneRows(batch.counts);
  const open = isOpenBatch(batch.status);
  const mayCancel = open && me.canCreate && (me.admin || batch.requested_by === me.email);
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        <span data-testid="batch-status" data-status={batch.status}>
          <StatusBadge status={batch.status} />
        </span>
        <span className="text-ink-muted">
          {`${transfersCount(total)}, ${totalsInWords(batch.totals)} · by ${batch.requested_by} · `}
          <Time iso={batch.created_at} />
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={`Batch ${batch.ref_id}: transfers done`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${formatCount(done)} of ${formatCount(total)} done`}
        className="h-2.5 overflow-hidden rounded-full bg-surface-sunken ring-1 ring-slate-200"
      >
        <div
          className={`h-full ${batch.counts.failed > 0 ? "bg-warn" : "bg-buy"} transition-[width] duration-300`}
          style={{ width: `${total === 0 ? 0 : (done * 100) / total}%` }}
        />
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" data-testid="batch-counts">
        {(["waiting", "sent", "failed", "skipped"] as const).map((k) => (
          <div key={k} className="rounded-md border border-slate-200 px-3 py-1.5" data-count={k}>
            <dt className="text-xs text-ink-muted capitalize">{k}</dt>
            <dd className="font-semibold tabular-nums">{formatCount(batch.counts[k])}</dd>
          </div>
        ))}
      </dl>
      {batch.status === "AWAITING_APPROVAL" && (
        <p className="text-sm font-medium text-warn" data-testid="batch-awaiting">
          Waiting for an approver other than the requester: nothing is sent until then.{" "}
          <IntentLink href="/approvals" className="text-brand underline underline-offset-2">
            See Approvals
          </IntentLink>
        </p>
      )}
      {mayCancel && <CancelBatch batch={batch} waiting={batch.counts.waiting} />}
    </div>
  );
}

/** Cancel, then a confirmation that says what it stops: the rows not sent yet. */
function CancelBatch({ batch, waiting }: { batch: Batch; waiting: number }) {
  const [asking, setAsking] = useState(false);
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => cancelBatch(batch.id),
    onSuccess: (next) => {
      queryClient.setQueryData(batchKeys.one(batch.id), next);
      void queryClient.invalidateQueries({ queryKey: batchKeys.list });
      setAsking(false);
    },
  });
  if (!asking) {
    return (
      <Button variant="secondary" onClick={() => setAsking(true)}>
        Cancel batch
      </Button>
    );
  }
  return (
    <div role="group" aria-label={`Confirm cancel of batch ${batch.ref_id}`} className="space-y-2">
      <p className="text-sm">{`Cancel the ${transfersCount(waiting)} not sent yet? A transfer already on its way still completes.`}</p>
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
          {cancel.isPending ? "Cancelling…" : "Cancel batch"}
        </Button>
        <Button variant="secondary" onClick={() => setAsking(false)} disabled={cancel.isPending}>
          Keep
        </Button>
      </div>
      {cancel.error && <ProblemAlert problem={problemOf(cancel.error)} title="The batch was not cancelled" />}
    </div>
  );
}

/** The results, row by row. */
function Results({ batch }: { batch: Batch | undefined }) {
  const { nickname, loading } = useProfileNames();
  const columns = useMemo(() => resultColumns(nickname), [nickname]);
  return (
    <DataTable
      caption="Results of the batch, row by row"
      columns={columns}
      data={batch && !loading ? batch.rows : undefined}
      loading={!batch || loading}
      empty={<TableMessage>No rows.</TableMessage>}
      rowKey={(r) => String(r.row)}
      placeholderRows={3}
    />
  );
}

/** Why a row failed, in the desk's words. */
function problemText(problem: unknown, nickname: (id: string) => string): string {
  if (!isProblem(problem)) return problem === undefined ? "" : String(problem);
  const named = namedProblem(problem, nickname);
  return named.detail ?? named.title;
}

function resultColumns(nickname: (id: string) => string): ColumnDef<BatchRowView, unknown>[] {
  return [
    { id: "row", header: "Row", cell: ({ row: { original: r } }) => formatCount(r.row) },
    { id: "from", header: "From", cell: ({ row: { original: r } }) => nickname(r.from_profile_id) },
    { id: "to", header: "To", cell: ({ row: { original: r } }) => nickname(r.to_profile_id) },
    { id: "asset", header: "Asset", cell: ({ row: { original: r } }) => r.asset },
    {
      id: "amount",
      header: "Amount",
      meta: { align: "right" },
      cell: ({ row: { original: r } }) => formatAsset(r.amount, r.asset),
    },
    {
      id: "ref_id",
      header: "Ref ID",
      cell: ({ row: { original: r } }) => (
        <code className="font-mono text-xs break-all whitespace-normal">{r.ref_id}</code>
      ),
    },
    {
      id: "status",
      header: "Status",
      cell: ({ row: { original: r } }) => (
        <span data-testid="row-status" data-status={r.status}>
          <StatusBadge status={r.status} />
        </span>
      ),
    },
    {
      id: "transfer",
      header: "Transfer",
      cell: ({ row: { original: r } }) => (r.transfer_id ? <ShortId id={r.transfer_id} /> : "—"),
    },
    {
      id: "problem",
      header: "Problem",
      cell: ({ row: { original: r } }) => (
        <span className="block max-w-80 text-xs whitespace-normal text-sell">
          {problemText(r.problem, nickname) || <span className="text-ink-muted">—</span>}
        </span>
      ),
    },
  ];
}
