"use client";

import { FormProvider, useForm, useWatch } from "react-hook-form";
import { api } from "@/lib/client/api";
import { formatAmount } from "@/lib/client/format";
import { Time } from "@/lib/client/time-zone";
import { useBalances, useProfiles, type Balance } from "@/lib/client/queries";
import { percentOfDown, trimZeros } from "@/lib/spec/decimal";
import { ASSETS } from "@/lib/spec/markets";
import type { Transfer } from "@/lib/spec/transfer";
import { RefIdField, SelectField, TextField } from "../forms/form-fields";
import { MetadataEditor } from "../forms/metadata-editor";
import { newRefId } from "@/lib/ref-id";
import { ReviewPanel } from "../forms/review-panel";
import { useCreateFlow } from "../forms/use-create-flow";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { ProblemAlert } from "../ui/problem-alert";
import { StatusBadge } from "../ui/status-badge";
import { transferDefaults, transferResolver, type TransferOutput, type TransferValues } from "./transfer-form-values";

const AMOUNT_SCALE = 8;
const IDENTITY_FIELDS = [
  ["from_identity_id", "From identity ID"],
  ["from_account_id", "From account ID"],
  ["to_identity_id", "To identity ID"],
  ["to_account_id", "To account ID"],
] as const;

const availableOf = (balances: Balance[] | undefined, asset: string) =>
  balances?.find((b) => b.asset === asset)?.available ?? (balances ? "0" : undefined);

/** Operations' internal transfer between two profiles, checked against the service's rules first. */
export function TransferForm() {
  const form = useForm<TransferValues, unknown, TransferOutput>({
    resolver: transferResolver,
    defaultValues: transferDefaults(),
    // Checked on Review, then as the user corrects: no error appears (and moves the button) mid-click.
    mode: "onSubmit",
  });
  const values = useWatch({ control: form.control }) as TransferValues;
  const profiles = useProfiles();
  const fromBalances = useBalances(values.from_profile_id || undefined);
  const toBalances = useBalances(values.to_profile_id || undefined);
  const flow = useCreateFlow(
    form,
    ({ request }: TransferOutput) => api<Transfer>("/api/v2/transfer/internal", { method: "POST", body: request }),
    ["transfers", "balances", "activity", "submitters"],
  );
  const name = (id: string) => profiles.data?.find((p) => p.id === id)?.nickname ?? id;
  const available = availableOf(fromBalances.data, values.asset);
  const profileOptions = (profiles.data ?? []).map((p) => ({ value: p.id, label: p.nickname }));
  const placeholder = profiles.isLoading ? "Loading profiles…" : "Choose a profile";
  const balanceHint = (id: string, balances: Balance[] | undefined) =>
    id ? `${values.asset} available: ${formatAmount(availableOf(balances, values.asset)) ?? "…"}` : undefined;

  return (
    <Card title="Internal transfer">
      <FormProvider {...form}>
        <form onSubmit={flow.openReview} noValidate aria-label="Internal transfer" className="space-y-4">
          <fieldset disabled={flow.review !== null} className="space-y-4">
            <SelectField
              name="from_profile_id"
              label="From profile"
              options={profileOptions}
              placeholder={placeholder}
              hint={balanceHint(values.from_profile_id, fromBalances.data)}
            />
            <SelectField
              name="to_profile_id"
              label="To profile"
              options={profileOptions}
              placeholder={placeholder}
              hint={balanceHint(values.to_profile_id, toBalances.data)}
            />
            <div className="grid grid-cols-[8rem_1fr] gap-3">
              <SelectField name="asset" label="Asset" options={ASSETS.map((a) => ({ value: a, label: a }))} />
              <div>
                <TextField name="amount" label="Amount" inputMode="decimal" />
                <div className="mt-1 flex gap-1" role="group" aria-label="Amount from balance">
                  {[25, 50, 100].map((p) => (
                    <Button
                      key={p}
                      variant="secondary"
                      className="px-2 py-0.5 text-xs"
                      disabled={!available}
                      onClick={() =>
                        available &&
                        form.setValue("amount", trimZeros(percentOfDown(available, p, AMOUNT_SCALE)), {
                          shouldValidate: true,
                        })
                      }
                    >
                      {p}%
                    </Button>
                  ))}
                </div>
              </div>
            </div>
            <details className="rounded-md border border-slate-200 p-3">
              <summary className="cursor-pointer text-sm font-semibold">Advanced</summary>
              <div className="mt-3 space-y-3">
                <RefIdField what="transfer" fresh={newRefId} />
                <MetadataEditor name="metadata" label="Metadata" />
                <MetadataEditor name="recipient_metadata" label="Recipient metadata" />
                <div className="grid grid-cols-2 gap-3">
                  {IDENTITY_FIELDS.map(([field, label]) => (
                    <TextField key={field} name={field} label={label} />
                  ))}
                </div>
              </div>
            </details>
          </fieldset>
          {flow.review ? (
            <ReviewPanel
              testId="transfer-review"
              sentence={`Move ${formatAmount(flow.review.request.amount)} ${flow.review.request.asset} from ${name(flow.review.request.from_profile_id)} to ${name(flow.review.request.to_profile_id)}.`}
              refId={flow.review.request.ref_id}
              pending={flow.pending}
              failed={flow.problem !== null}
              onConfirm={flow.confirm}
              onEdit={flow.edit}
            />
          ) : (
            <Button type="submit" className="w-full">
              Review transfer
            </Button>
          )}
          {flow.problem && (
            <ProblemAlert problem={flow.problem} title={`The transfer was not made: ${flow.problem.title}`} />
          )}
          {flow.result && <TransferResult transfer={flow.result} />}
        </form>
      </FormProvider>
    </Card>
  );
}

/** The DEBIT leg the service answered with, and the group that ties it to its CREDIT leg. */
function TransferResult({ transfer }: { transfer: Transfer }) {
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
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-ink-muted">Amount</dt>
        <dd className="font-mono">
          {formatAmount(transfer.amount)} {transfer.asset}
        </dd>
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
