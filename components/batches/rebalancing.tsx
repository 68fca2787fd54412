"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { problemOf } from "@/lib/client/api";
import { batchKeys, saveRebalanceTargets, useRebalancePlan, useRebalanceTargets } from "@/lib/client/batches";
import { useProfileNames } from "@/lib/client/profile-names";
import { formatAsset, formatCount, formatMoney, groupAmountInput, parseAmountInput } from "@/lib/shared/format";
import type { PlannedTransfer, RebalanceTarget } from "@/lib/shared/rebalance-plan";
import { ASSETS } from "@/lib/spec/markets";
import type { Problem } from "@/lib/spec/problem";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { DataTable } from "../ui/data-table";
import { inputClass } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { TableError, TableMessage } from "../ui/table-message";
import { useToast } from "../ui/toasts";
import { transfersCount } from "@/lib/shared/describe-batch";

/**
 * Rebalancing to target balances: the targets (a profile's wanted balance of an asset, and how
 * far below it is still fine), edited as rows and saved as a whole; the plan the back end makes
 * from them and today's balances (lib/shared/rebalance-plan.ts); and "Make a batch", which puts
 * the plan's transfers in the new batch, to be previewed, reviewed and sent as any batch is.
 */
export function Rebalancing({ onMakeBatch }: { onMakeBatch: (transfers: PlannedTransfer[]) => void }) {
  const targets = useRebalanceTargets(true);
  return (
    <Card title="Rebalancing">
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)]">
        <section aria-labelledby="targets-title" className="min-w-0 space-y-3">
          <h3 id="targets-title" className="text-sm font-semibold">
            Targets
          </h3>
          {targets.isError ? (
            <ProblemAlert problem={problemOf(targets.error)} title="Could not load the targets" />
          ) : targets.data ? (
            <TargetsEditor key={targets.dataUpdatedAt} saved={targets.data} />
          ) : (
            // The room of an empty editor, so nothing under it moves when the targets arrive.
            <div aria-hidden className="h-24 animate-pulse rounded-md bg-surface-sunken" />
          )}
        </section>
        <Plan onMakeBatch={onMakeBatch} />
      </div>
    </Card>
  );
}

interface DraftTarget {
  key: number;
  profile_id: string;
  asset: string;
  target: string;
  band: string;
}

let nextKey = 1;
const draftOf = (t: RebalanceTarget): DraftTarget => ({
  key: nextKey++,
  profile_id: t.profile_id,
  asset: t.asset,
  target: groupAmountInput(t.target),
  band: groupAmountInput(t.band),
});
const targetOf = (d: DraftTarget): RebalanceTarget => ({
  profile_id: d.profile_id,
  asset: d.asset,
  target: parseAmountInput(d.target),
  band: parseAmountInput(d.band),
});

const FIELDS = ["profile_id", "asset", "target", "band"] as const;
type TargetField = (typeof FIELDS)[number];

/** A refused save's messages by row and field ("targets.2.band"), and the rest. */
function placeSaveErrors(problem: Problem | null): { at: Map<string, string>; rest: boolean } {
  const at = new Map<string, string>();
  let rest = false;
  for (const e of (problem?.meta?.errors as { field: string; message: string }[] | undefined) ?? []) {
    const m = /^targets(?:\.|\[)(\d+)\]?\.(\w+)$/.exec(e.field);
    if (m && (FIELDS as readonly string[]).includes(m[2]!)) at.set(`${m[1]}.${m[2]}`, e.message);
    else rest = true;
  }
  return { at, rest };
}

function TargetsEditor({ saved }: { saved: RebalanceTarget[] }) {
  const { profiles, nickname } = useProfileNames();
  const [rows, setRows] = useState<DraftTarget[]>(() => saved.map(draftOf));
  const queryClient = useQueryClient();
  const notify = useToast();
  const save = useMutation({
    mutationFn: () => saveRebalanceTargets(rows.map(targetOf)),
    onSuccess: (targets) => {
      queryClient.setQueryData(batchKeys.targets, targets);
      void queryClient.invalidateQueries({ queryKey: batchKeys.plan });
      notify({
        title: "Targets saved",
        detail: `${formatCount(targets.length)} targets; the plan is made again.`,
        tone: "success",
      });
    },
  });
  const problem = save.error ? problemOf(save.error) : null;
  const errors = placeSaveErrors(problem);
  const dirty = JSON.stringify(rows.map(targetOf)) !== JSON.stringify(saved);
  const change = (key: number, field: TargetField, value: string) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, [field]: value } : r)));

  return (
    <form
      aria-label="Rebalancing targets"
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div role="table" aria-label="Targets: each profile's wanted balance of an asset" className="space-y-2 text-sm">
        <div role="rowgroup" className="max-sm:hidden">
          <div role="row" className={`${TARGET_ROW} text-xs text-ink-muted`}>
            <span role="columnheader">Profile</span>
            <span role="columnheader">Asset</span>
            <span role="columnheader">Target</span>
            <span role="columnheader">Band below it</span>
            <span role="columnheader">
              <span className="sr-only">Actions</span>
            </span>
          </div>
        </div>
        <div role="rowgroup" className="space-y-2">
          {rows.length === 0 && (
            <div role="row">
              <span role="cell" className="text-ink-muted">
                No targets yet: add one for each profile and asset to keep in balance.
              </span>
            </div>
          )}
          {rows.map((r, i) => {
            const n = i + 1;
            const messageOf = (field: TargetField) => errors.at.get(`${i}.${field}`);
            const describe = (field: TargetField) =>
              messageOf(field) ? { "aria-invalid": true, "aria-describedby": `target-${r.key}-${field}-error` } : {};
            return (
              <div
                role="row"
                key={r.key}
                data-target-row={n}
                className={`${TARGET_ROW} max-sm:rounded-md max-sm:border max-sm:border-slate-200 max-sm:p-2`}
              >
                <span role="cell" className="min-w-0 max-sm:col-span-2">
                  <PhoneLabel>Profile</PhoneLabel>
                  <select
                    aria-label={`Profile of target ${n}`}
                    value={r.profile_id}
                    onChange={(e) => change(r.key, "profile_id", e.target.value)}
                    className={inputClass(Boolean(messageOf("profile_id")))}
                    {...describe("profile_id")}
                  >
                    <option value="">Choose a profile</option>
                    {/* A saved target's profile stays choosable while the profiles load. */}
                    {!profiles.some((p) => p.id === r.profile_id) && r.profile_id && (
                      <option value={r.profile_id}>{nickname(r.profile_id)}</option>
                    )}
                    {profiles.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.nickname}
                      </option>
                    ))}
                  </select>
                </span>
                <span role="cell" className="min-w-0">
                  <PhoneLabel>Asset</PhoneLabel>
                  <select
                    aria-label={`Asset of target ${n}`}
                    value={r.asset}
                    onChange={(e) => change(r.key, "asset", e.target.value)}
                    className={inputClass(Boolean(messageOf("asset")))}
                    {...describe("asset")}
                  >
                    {ASSETS.map((a) => (
                      <option key={a} value={a}>
                        {a}
                      </option>
                    ))}
                  </select>
                </span>
                {(["target", "band"] as const).map((field) => (
                  <span role="cell" key={field} className="min-w-0">
                    <PhoneLabel>{field === "target" ? "Target" : "Band below it"}</PhoneLabel>
                    <input
                      aria-label={`${field === "target" ? "Target" : "Band"} of target ${n}`}
                      inputMode="decimal"
                      autoComplete="off"
                      value={r[field]}
                      onChange={(e) => change(r.key, field, e.target.value)}
                      onBlur={() => change(r.key, field, groupAmountInput(r[field]))}
                      className={inputClass(Boolean(messageOf(field)))}
                      {...describe(field)}
                    />
                  </span>
                ))}
                <span role="cell" className="max-sm:self-end">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove target ${n}`}
                    onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))}
                  >
                    Remove
                  </Button>
                </span>
                {FIELDS.some(messageOf) && (
                  <span role="cell" className="col-span-full space-y-0.5 text-xs font-medium text-sell">
                    {FIELDS.filter(messageOf).map((field) => (
                      <span key={field} id={`target-${r.key}-${field}-error`} className="block">
                        {messageOf(field)}
                      </span>
                    ))}
                  </span>
                )}
              </div>
            );
          })}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="secondary"
          onClick={() =>
            setRows((all) => [...all, { key: nextKey++, profile_id: "", asset: "USD", target: "", band: "0" }])
          }
        >
          Add target
        </Button>
        <Button type="submit" disabled={save.isPending || !dirty}>
          {save.isPending ? "Saving…" : "Save targets"}
        </Button>
        <span className="text-xs text-ink-muted" data-testid="targets-state" aria-live="polite">
          {dirty ? "Unsaved changes" : "Saved"}
        </span>
      </div>
      {problem && (errors.rest || errors.at.size === 0) && (
        <ProblemAlert problem={problem} title={`The targets were not saved: ${problem.title}`} />
      )}
    </form>
  );
}

/** Profile, asset, target, band, and Remove, from 640 px up; a card of two columns on a phone. */
const TARGET_ROW =
  "grid grid-cols-2 items-start gap-2 sm:grid-cols-[minmax(8rem,1.5fr)_minmax(5rem,0.7fr)_minmax(6rem,1fr)_minmax(6rem,1fr)_5rem]";

/** A control's name over it on a phone, where there is no header row (its accessible name is its own aria-label). */
function PhoneLabel({ children }: { children: string }) {
  return (
    <span aria-hidden className="mb-0.5 block text-xs text-ink-muted sm:hidden">
      {children}
    </span>
  );
}

/** The transfers the plan proposes, what it cannot fill, and "Make a batch". */
function Plan({ onMakeBatch }: { onMakeBatch: (transfers: PlannedTransfer[]) => void }) {
  const plan = useRebalancePlan(true);
  const { nickname, loading } = useProfileNames();
  const columns = useMemo(() => planColumns(nickname), [nickname]);
  const transfers = plan.data?.transfers ?? [];
  return (
    <section aria-labelledby="plan-title" className="min-w-0 space-y-3" data-testid="rebalance-plan">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="plan-title" className="text-sm font-semibold">
          Proposed transfers
        </h3>
        <Button variant="ghost" size="sm" onClick={() => void plan.refetch()} disabled={plan.isFetching}>
          {plan.isFetching ? "Planning…" : "Plan again"}
        </Button>
      </div>
      <DataTable
        caption="Transfers the rebalancing plan proposes"
        columns={columns}
        data={loading ? undefined : plan.data?.transfers}
        loading={plan.isPending || loading}
        error={plan.isError ? <TableError error={plan.error} what="the plan" onRetry={plan.refetch} /> : undefined}
        empty={<TableMessage>Every profile with a target is within its band: nothing to move.</TableMessage>}
        rowKey={(t) => `${t.asset}:${t.from_profile_id}:${t.to_profile_id}`}
        placeholderRows={3}
      />
      {(plan.data?.short.length ?? 0) > 0 && (
        <ul className="space-y-0.5 text-sm text-warn" data-testid="plan-short">
          {plan.data!.short.map((s) => (
            <li key={`${s.profile_id}:${s.asset}`}>
              {`${nickname(s.profile_id)} stays ${formatMoney(s.missing, s.asset)} short of its target: no profile has that much to spare.`}
            </li>
          ))}
        </ul>
      )}
      <Button onClick={() => onMakeBatch(transfers)} disabled={transfers.length === 0}>
        {transfers.length > 0 ? `Make a batch of ${transfersCount(transfers.length)}` : "Make a batch"}
      </Button>
    </section>
  );
}

function planColumns(nickname: (id: string) => string): ColumnDef<PlannedTransfer, unknown>[] {
  return [
    { id: "from", header: "From", cell: ({ row: { original: t } }) => nickname(t.from_profile_id) },
    { id: "to", header: "To", cell: ({ row: { original: t } }) => nickname(t.to_profile_id) },
    { id: "asset", header: "Asset", cell: ({ row: { original: t } }) => t.asset },
    {
      id: "amount",
      header: "Amount",
      meta: { align: "right" },
      cell: ({ row: { original: t } }) => formatAsset(t.amount, t.asset),
    },
  ];
}
