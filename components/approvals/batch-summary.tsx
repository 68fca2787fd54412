"use client";

import { useQuery } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { api } from "@/lib/client/api";
import type { Approval } from "@/lib/shared/approval";
import { isOpenBatch, type Batch } from "@/lib/shared/batch";
import { formatAsset, formatCount, formatUsd } from "@/lib/shared/format";
import { AssetAmount } from "../ui/asset-amount";
import { batchHref, batchProgressWords, batchRequestOf } from "@/lib/shared/batch-approval-words";

const PROGRESS_EVERY_MS = 2_000;

/**
 * What a held batch asks, for anyone who reads its card: its totals per asset (and their worth in
 * USD), its largest rows by worth (from, to, asset, amount, USD), profiles by nickname, and a link
 * to the whole batch on the Batches page, where every row is. Drawn from the approval's own
 * request (what was asked), but for its progress: once approved and sending, the batch as it
 * stands now. The progress line is there from the start, so a decision adds no line to the card.
 */
export function BatchSummary({ approval: a, nickname }: { approval: Approval; nickname: (id: string) => string }) {
  const r = batchRequestOf(a);
  const all = r.largest.length >= r.rows;
  return (
    <div className="mt-3 space-y-3 text-sm" data-testid="batch-summary" data-batch-id={r.batch_id}>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-ink-muted">Batch</dt>
        <dd className="break-all" data-testid="batch-ref">
          ref_id <span className="font-mono">{r.ref_id}</span>
        </dd>
        <dt className="font-medium text-ink-muted">Totals</dt>
        <dd>
          <ul data-testid="batch-totals">
            {r.totals.map((t) => (
              <li key={t.asset} data-asset={t.asset} className="tabular-nums">
                <span className="font-semibold">
                  {formatAsset(t.amount, t.asset)} {t.asset}
                </span>
                {t.asset !== "USD" && (
                  <span className="text-ink-muted">
                    {" "}
                    ({t.value_usd ? `about ${formatUsd(t.value_usd)}` : "no USD price"})
                  </span>
                )}
              </li>
            ))}
          </ul>
        </dd>
        <dt className="font-medium text-ink-muted">Progress</dt>
        <dd data-testid="batch-progress">
          <BatchProgress approval={a} batchId={r.batch_id} />
        </dd>
      </dl>
      <table className="w-full max-w-2xl text-sm" data-testid="batch-largest">
        <caption className="mb-1 text-left font-medium text-ink-muted">
          {all
            ? `Its ${r.rows === 1 ? "transfer" : `${formatCount(r.rows)} transfers`}`
            : `Largest ${r.largest.length} of ${formatCount(r.rows)} transfers`}
        </caption>
        <thead className="text-left text-xs text-ink-muted">
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-1 pr-2 font-medium">
              Row
            </th>
            <th scope="col" className="py-1 pr-2 font-medium">
              From → to
            </th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              USD
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {r.largest.map((row) => (
            <tr key={row.row} data-row={row.row}>
              <td className="py-1 pr-2 align-top tabular-nums">{row.row}</td>
              <td className="py-1 pr-2 align-top">
                {nickname(row.from_profile_id)} → {nickname(row.to_profile_id)}
              </td>
              <td className="py-1 pr-2 text-right align-top tabular-nums">
                <AssetAmount text={formatAsset(row.amount, row.asset)} asset={row.asset} />
              </td>
              <td className="py-1 text-right align-top tabular-nums" title={row.value_usd ? undefined : "No USD price"}>
                {row.value_usd ? formatAsset(row.value_usd, "USD") : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <IntentLink
          href={batchHref(r.batch_id)}
          className="font-medium text-brand underline underline-offset-2"
          data-testid="batch-link"
        >
          Open batch {r.ref_id} with all its rows
        </IntentLink>
      </p>
    </div>
  );
}

/** The batch now, read while its rows are being sent (one read once it has ended); none before it is approved and sending. */
function BatchProgress({ approval: a, batchId }: { approval: Approval; batchId: string }) {
  const sending = a.status === "APPROVED" && a.outcome !== null && a.outcome.status < 300;
  // The Batches page's own key for one batch (GET /api/batches/{id}, the batch as its data).
  const batch = useQuery({
    queryKey: ["batches", "one", batchId],
    queryFn: ({ signal }) =>
      api<{ batch: Batch }>(`/api/batches/${encodeURIComponent(batchId)}`, { signal }).then((res) => res.batch),
    enabled: sending,
    refetchInterval: (q) => (q.state.data && !isOpenBatch(q.state.data.status) ? false : PROGRESS_EVERY_MS),
  });
  return <>{batchProgressWords(a, batch.data) ?? (batch.isError ? "Not known now." : "Reading…")}</>;
}
