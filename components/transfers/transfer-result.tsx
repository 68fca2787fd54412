"use client";

import { api } from "@/lib/client/api";
import { formatMoney } from "@/lib/shared/format";
import { keys } from "@/lib/client/queries";
import { Time } from "@/lib/client/time-zone";
import { FINAL_TRANSFER_STATUSES, type TransferStatus } from "@/lib/spec/enums";
import type { Transfer } from "@/lib/spec/transfer";
import { useFollowRecord } from "../forms/use-follow-record";
import { transferEndNotice } from "../notices/notice-words";
import { StatusBadge } from "../ui/status-badge";
import { useToast } from "../ui/toasts";
import { describeTransferOutcome, type TransferNames } from "@/lib/shared/describe-transfer";

const isFinal = (status: string) => FINAL_TRANSFER_STATUSES.includes(status as TransferStatus);

/**
 * The DEBIT leg the service answered with, and the group that ties it to its CREDIT leg, read
 * again until it is COMPLETED or FAILED ("Sent 100 EUR from Treasury to Settlement — COMPLETED"),
 * with a notice when it ends.
 */
export function TransferResult({ transfer: created, names }: { transfer: Transfer; names: TransferNames }) {
  const notify = useToast();
  const transfer = useFollowRecord({
    created,
    queryKey: keys.transfer(created.id),
    read: () => api<Transfer>(`/api/v2/transfer/transfers/${encodeURIComponent(created.id)}`),
    isFinal,
    onFinal: (t) => notify(transferEndNotice(t, names)),
  });
  return (
    <div
      role="status"
      data-testid="transfer-result"
      className="rounded-md border border-buy/30 bg-buy-soft/40 p-3 text-sm"
    >
      <div className="flex items-center justify-between">
        <span className="font-semibold">Transfer sent ({transfer.direction})</span>
        <StatusBadge status={transfer.status} />
      </div>
      <p className="mt-2 font-medium" data-testid="transfer-outcome">
        {describeTransferOutcome(transfer, names)}
      </p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-ink-muted">Amount</dt>
        <dd className="font-mono">{formatMoney(transfer.amount, transfer.asset)}</dd>
        <dt className="text-ink-muted">Group id</dt>
        <dd className="truncate font-mono text-xs">{transfer.group_id}</dd>
        <dt className="text-ink-muted">Transfer id</dt>
        <dd className="truncate font-mono text-xs">{transfer.id}</dd>
        <dt className="text-ink-muted">Created</dt>
        <dd>
          <Time iso={transfer.created_at} />
        </dd>
      </dl>
    </div>
  );
}
