"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { api, ApiProblem } from "@/lib/client/api";
import { formatAmount, formatTime } from "@/lib/client/format";
import { useBalances, useProfiles } from "@/lib/client/queries";
import { percentOfDown, trimZeros } from "@/lib/spec/decimal";
import { ASSETS } from "@/lib/spec/markets";
import type { Problem } from "@/lib/spec/problem";
import type { CreateInternalTransferRequest, Transfer } from "@/lib/spec/transfer";
import { MetadataEditor } from "../forms/metadata-editor";
import { newRefId } from "../orders/ticket-form";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Field, inputClass } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { StatusBadge } from "../ui/status-badge";
import { transferDefaults, transferResolver, type TransferValues } from "./transfer-form-values";

const AMOUNT_SCALE = 8;

/** Operations' internal transfer between two profiles, checked against the service's rules first. */
export function TransferForm() {
  const form = useForm<TransferValues, unknown, CreateInternalTransferRequest>({
    resolver: transferResolver,
    defaultValues: transferDefaults(),
    // Checked on Review, then as the user corrects: no error appears (and moves the button) mid-click.
    mode: "onSubmit",
  });
  const { register, setValue, formState } = form;
  const errors = formState.errors;
  const values = useWatch({ control: form.control }) as TransferValues;
  const profiles = useProfiles();
  const fromBalances = useBalances(values.from_profile_id || undefined);
  const toBalances = useBalances(values.to_profile_id || undefined);
  const [review, setReview] = useState<CreateInternalTransferRequest | null>(null);
  const [result, setResult] = useState<Transfer | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const queryClient = useQueryClient();
  const name = (id: string) => profiles.data?.find((p) => p.id === id)?.nickname ?? id;
  const availableOf = (list: typeof fromBalances.data, asset: string) =>
    list?.find((b) => b.asset === asset)?.available ?? (list ? "0" : undefined);
  const available = availableOf(fromBalances.data, values.asset);

  const send = useMutation({
    mutationFn: (request: CreateInternalTransferRequest) =>
      api<Transfer>("/api/v2/transfer/internal", { method: "POST", body: request }),
    onSuccess: (transfer) => {
      setResult(transfer);
      setReview(null);
      setValue("ref_id", newRefId());
      for (const key of ["transfers", "balances", "activity", "submitters"])
        void queryClient.invalidateQueries({ queryKey: [key] });
    },
    onError: (error) => {
      const p =
        error instanceof ApiProblem
          ? error.problem
          : { type: "about:blank", title: "Error", status: 0, detail: String(error) };
      setProblem(p);
      for (const e of (p.meta?.errors as { field: string; message: string }[] | undefined) ?? []) {
        const field = e.field.split(".")[0] as keyof TransferValues;
        if (field in form.getValues()) form.setError(field, { type: "server", message: e.message });
      }
    },
  });

  const openReview = form.handleSubmit((request) => {
    setProblem(null);
    setResult(null);
    setReview(request);
  });

  const profileSelect = (field: "from_profile_id" | "to_profile_id", label: string, list: typeof fromBalances.data) => (
    <Field
      label={label}
      error={errors[field]?.message}
      hint={values[field] && `${values.asset} available: ${formatAmount(availableOf(list, values.asset)) ?? "…"}`}
    >
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          className={inputClass(invalid)}
          {...register(field)}
        >
          <option value="">{profiles.isLoading ? "Loading profiles…" : "Choose a profile"}</option>
          {profiles.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.nickname}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  return (
    <Card title="Internal transfer">
      <FormProvider {...form}>
        <form onSubmit={openReview} noValidate aria-label="Internal transfer" className="space-y-4">
          <fieldset disabled={review !== null} className="space-y-4">
            {profileSelect("from_profile_id", "From profile", fromBalances.data)}
            {profileSelect("to_profile_id", "To profile", toBalances.data)}
            <div className="grid grid-cols-[8rem_1fr] gap-3">
              <Field label="Asset" error={errors.asset?.message}>
                {({ id, describedBy, invalid }) => (
                  <select id={id} aria-describedby={describedBy} className={inputClass(invalid)} {...register("asset")}>
                    {ASSETS.map((a) => (
                      <option key={a}>{a}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Amount" error={errors.amount?.message}>
                {({ id, describedBy, invalid }) => (
                  <div>
                    <input
                      id={id}
                      inputMode="decimal"
                      autoComplete="off"
                      aria-describedby={describedBy}
                      aria-invalid={invalid}
                      className={inputClass(invalid)}
                      {...register("amount")}
                    />
                    <div className="mt-1 flex gap-1" role="group" aria-label="Amount from balance">
                      {[25, 50, 100].map((p) => (
                        <Button
                          key={p}
                          variant="secondary"
                          className="px-2 py-0.5 text-xs"
                          disabled={!available}
                          onClick={() =>
                            available &&
                            setValue("amount", trimZeros(percentOfDown(available, p, AMOUNT_SCALE)), {
                              shouldValidate: true,
                            })
                          }
                        >
                          {p}%
                        </Button>
                      ))}
                    </div>
                  </div>
                )}
              </Field>
            </div>
            <details className="rounded-md border border-slate-200 p-3">
              <summary className="cursor-pointer text-sm font-semibold">Advanced</summary>
              <div className="mt-3 space-y-3">
                <Field
                  label="Ref ID"
                  error={errors.ref_id?.message}
                  hint="Idempotence key: a retry with the same ref_id never moves the money twice."
                >
                  {({ id, describedBy, invalid }) => (
                    <div className="flex gap-2">
                      <input
                        id={id}
                        aria-describedby={describedBy}
                        aria-invalid={invalid}
                        className={`${inputClass(invalid)} font-mono`}
                        {...register("ref_id")}
                      />
                      <Button variant="secondary" onClick={() => setValue("ref_id", newRefId())}>
                        New
                      </Button>
                    </div>
                  )}
                </Field>
                <MetadataEditor name="metadata" label="Metadata" />
                <MetadataEditor name="recipient_metadata" label="Recipient metadata" />
                <div className="grid grid-cols-2 gap-3">
                  {(["from_identity_id", "from_account_id", "to_identity_id", "to_account_id"] as const).map((f) => (
                    <Field
                      key={f}
                      label={f
                        .replace(/_/g, " ")
                        .replace(/^./, (c) => c.toUpperCase())
                        .replace(" id", " ID")}
                      error={errors[f]?.message}
                    >
                      {({ id, describedBy, invalid }) => (
                        <input
                          id={id}
                          aria-describedby={describedBy}
                          aria-invalid={invalid}
                          className={inputClass(invalid)}
                          {...register(f)}
                        />
                      )}
                    </Field>
                  ))}
                </div>
              </div>
            </details>
          </fieldset>
          {review ? (
            <section aria-label="Review" className="space-y-3 rounded-md border border-brand/30 bg-brand-soft/40 p-3">
              <h3 className="text-sm font-semibold">Review</h3>
              <p data-testid="transfer-review" className="text-sm">
                Move {formatAmount(review.amount)} {review.asset} from {name(review.from_profile_id)} to{" "}
                {name(review.to_profile_id)}.
              </p>
              <p className="font-mono text-xs text-ink-muted">ref_id {review.ref_id}</p>
              <div className="flex gap-2">
                <Button onClick={() => send.mutate(review)} disabled={send.isPending} autoFocus>
                  {send.isPending ? "Sending…" : problem ? "Retry with the same ref_id" : "Confirm and send"}
                </Button>
                <Button variant="secondary" onClick={() => setReview(null)} disabled={send.isPending}>
                  Edit
                </Button>
              </div>
            </section>
          ) : (
            <Button type="submit" className="w-full">
              Review transfer
            </Button>
          )}
          {problem && <ProblemAlert problem={problem} title={`The transfer was not made: ${problem.title}`} />}
          {result && (
            <div
              role="status"
              data-testid="transfer-result"
              className="rounded-md border border-buy/30 bg-buy-soft/40 p-3 text-sm"
            >
              <div className="flex items-center justify-between">
                <span className="font-semibold">Transfer sent ({result.direction})</span>
                <StatusBadge status={result.status} />
              </div>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                <dt className="text-ink-muted">Amount</dt>
                <dd className="font-mono">
                  {formatAmount(result.amount)} {result.asset}
                </dd>
                <dt className="text-ink-muted">Group id</dt>
                <dd className="truncate font-mono text-xs">{result.group_id}</dd>
                <dt className="text-ink-muted">Transfer id</dt>
                <dd className="truncate font-mono text-xs">{result.id}</dd>
                <dt className="text-ink-muted">Created</dt>
                <dd>{formatTime(result.created_at)}</dd>
              </dl>
            </div>
          )}
        </form>
      </FormProvider>
    </Card>
  );
}
