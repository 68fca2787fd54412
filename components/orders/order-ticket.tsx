"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { FormProvider, useForm, useWatch, type UseFormReturn } from "react-hook-form";
import { api, ApiProblem } from "@/lib/client/api";
import { useBalances, useProfiles, useTicker } from "@/lib/client/queries";
import { decimalProblem, divideDecimalDown, multiplyDecimal, percentOfDown } from "@/lib/spec/decimal";
import { MARKETS, ORDER_TYPES, ORDER_TYPE_WORDS } from "@/lib/spec/enums";
import { AWAIT_FILL_MAX_MILLIS, SELF_MATCH_PREVENTION_ID_MAX_CHARS } from "@/lib/spec/limits";
import { BASE_AMOUNT_SCALE, MARKET_DETAILS, QUOTE_AMOUNT_SCALE } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import { FIELD_LABELS, quantityRuleFor, sidesFor, type QuantityField } from "@/lib/spec/order-rules";
import type { Problem } from "@/lib/spec/problem";
import { timeInForceFor } from "@/lib/spec/time-in-force";
import { MetadataEditor } from "../forms/metadata-editor";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Field, inputClass } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { describeOrder } from "./describe-order";
import { MarketPanel } from "./market-panel";
import { OrderResult } from "./order-result";
import {
  newRefId,
  ticketDefaults,
  ticketResolver,
  timeInForceAfterTypeChange,
  toOrderRequest,
  type TicketOutput,
  type TicketValues,
} from "./ticket-form";

const TIF_LABELS = {
  GTC: "GTC — good till cancelled",
  IOC: "IOC — immediate or cancel",
  FOK: "FOK — fill or kill",
  GTT: "GTT — good till time",
};
/** Quantity fields in the order a trader reads them. */
const QUANTITY_ORDER: QuantityField[] = ["stop_price", "price", "base_amount", "quote_amount"];
const isDecimal = (v: string) => v !== "" && decimalProblem(v) === null;

/** The order's notional in the quote currency, estimated exactly from the ticket and the book. */
function estimateNotional(v: TicketValues, bestBid?: string): string | undefined {
  if (v.type === "MARKET") {
    if (v.side === "BUY") return isDecimal(v.quote_amount) ? v.quote_amount : undefined;
    return isDecimal(v.base_amount) && bestBid && bestBid !== "0" ? multiplyDecimal(v.base_amount, bestBid) : undefined;
  }
  const price = v.type === "STOP_MARKET" ? v.stop_price : v.price;
  return isDecimal(price) && isDecimal(v.base_amount) ? multiplyDecimal(price, v.base_amount) : undefined;
}

/** Treasury's order ticket: every rule of the service checked on its field before anything is sent. */
export function OrderTicket() {
  const form = useForm<TicketValues, unknown, TicketOutput>({
    resolver: ticketResolver,
    defaultValues: ticketDefaults(),
    // Checked on Review, then as the user corrects: no error appears (and moves the button) mid-click.
    mode: "onSubmit",
  });
  const profiles = useProfiles();
  const [review, setReview] = useState<TicketOutput | null>(null);
  const [result, setResult] = useState<Order | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const queryClient = useQueryClient();

  const send = useMutation({
    mutationFn: ({ profileId, request }: TicketOutput) =>
      api<Order>(`/api/v2/profiles/${encodeURIComponent(profileId)}/orders`, { method: "POST", body: request }),
    onSuccess: (order) => {
      setResult(order);
      setReview(null);
      // A new order gets a new ref_id; everything else stays for the next ticket.
      form.setValue("ref_id", newRefId());
      for (const key of ["orders", "balances", "activity", "submitters"])
        void queryClient.invalidateQueries({ queryKey: [key] });
    },
    onError: (error) => {
      // The ref_id is kept: a retry is recognised by the service as the same order.
      const p =
        error instanceof ApiProblem
          ? error.problem
          : { type: "about:blank", title: "Error", status: 0, detail: String(error) };
      setProblem(p);
      const fieldErrors = (p.meta?.errors as { field: string; message: string }[] | undefined) ?? [];
      for (const e of fieldErrors) {
        const field = e.field.split(".")[0] as keyof TicketValues;
        if (field in form.getValues()) form.setError(field, { type: "server", message: e.message });
      }
    },
  });

  const openReview = form.handleSubmit((output) => {
    setProblem(null);
    setResult(null);
    setReview(output);
  });
  const profileName = (id: string) => profiles.data?.find((p) => p.id === id)?.nickname ?? id;

  return (
    <Card title="Order ticket">
      <FormProvider {...form}>
        <form onSubmit={openReview} noValidate aria-label="Order ticket" className="space-y-4">
          <fieldset disabled={review !== null} className="space-y-4">
            <TicketFields form={form} />
          </fieldset>
          {review ? (
            <section aria-label="Review" className="space-y-3 rounded-md border border-brand/30 bg-brand-soft/40 p-3">
              <h3 className="text-sm font-semibold">Review</h3>
              <p data-testid="order-review" className="text-sm">
                {describeOrder(review.request, profileName(review.profileId))}
              </p>
              <p className="font-mono text-xs text-ink-muted">ref_id {review.request.ref_id}</p>
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
              Review order
            </Button>
          )}
          {problem && <ProblemAlert problem={problem} title={`The order was not placed: ${problem.title}`} />}
          {result && <OrderResult order={result} />}
        </form>
      </FormProvider>
    </Card>
  );
}

function TicketFields({ form }: { form: UseFormReturn<TicketValues, unknown, TicketOutput> }) {
  const { register, setValue, formState } = form;
  const errors = formState.errors;
  const values = useWatch({ control: form.control }) as TicketValues;
  const { type, side, market, profile_id: profileId, time_in_force: tif } = values;
  const profiles = useProfiles();
  const ticker = useTicker(market);
  const balances = useBalances(profileId || undefined);
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[market];
  const rule = quantityRuleFor(type, side);
  const shown = QUANTITY_ORDER.filter((f) => rule.required.includes(f));
  const available = (asset: string) => balances.data?.find((b) => b.asset === asset)?.available;

  function preset(field: QuantityField, percent: number) {
    if (field === "quote_amount") {
      const q = available(quote);
      if (q) setValue(field, percentOfDown(q, percent, QUOTE_AMOUNT_SCALE), { shouldValidate: true });
    } else if (side === "SELL") {
      const b = available(base);
      if (b) setValue(field, percentOfDown(b, percent, BASE_AMOUNT_SCALE), { shouldValidate: true });
    } else if (isDecimal(values.price) && available(quote)) {
      const budget = percentOfDown(available(quote)!, percent, QUOTE_AMOUNT_SCALE);
      setValue(field, divideDecimalDown(budget, values.price, BASE_AMOUNT_SCALE), { shouldValidate: true });
    }
  }
  const presetsFor = (field: QuantityField) =>
    (field === "base_amount" && (side === "SELL" || isDecimal(values.price))) || field === "quote_amount";

  return (
    <>
      <Field label="Profile" error={errors.profile_id?.message}>
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            className={inputClass(invalid)}
            {...register("profile_id")}
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
      <div className="grid grid-cols-2 gap-3">
        <Field label="Market" error={errors.market?.message}>
          {({ id, describedBy, invalid }) => (
            <select id={id} aria-describedby={describedBy} className={inputClass(invalid)} {...register("market")}>
              {MARKETS.map((m) => (
                <option key={m} value={m}>
                  {MARKET_DETAILS[m].base_asset}/{MARKET_DETAILS[m].quote_asset}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Order type" error={errors.type?.message}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              aria-describedby={describedBy}
              className={inputClass(invalid)}
              {...register("type", {
                onChange: (e: { target: { value: TicketValues["type"] } }) => {
                  const next = e.target.value;
                  setValue("time_in_force", timeInForceAfterTypeChange(next, form.getValues("time_in_force")));
                  if (!sidesFor(next).includes(form.getValues("side"))) setValue("side", "SELL");
                },
              })}
            >
              {ORDER_TYPES.map((t) => (
                <option key={t} value={t}>
                  {ORDER_TYPE_WORDS[t].replace(/^./, (c) => c.toUpperCase())}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset>
        <legend className="text-sm font-medium">Side</legend>
        <div className="mt-1 grid grid-cols-2 gap-2">
          {(["BUY", "SELL"] as const).map((s) => {
            const allowed = sidesFor(type).includes(s);
            return (
              <label
                key={s}
                className={`flex cursor-pointer items-center justify-center gap-2 rounded-md border px-3 py-2 text-sm font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand ${
                  side === s
                    ? s === "BUY"
                      ? "border-buy bg-buy text-white"
                      : "border-sell bg-sell text-white"
                    : "border-slate-300"
                } ${allowed ? "" : "cursor-not-allowed opacity-40"}`}
              >
                <input type="radio" value={s} disabled={!allowed} className="sr-only" {...register("side")} />
                {s === "BUY" ? "Buy" : "Sell"}
              </label>
            );
          })}
        </div>
        {type.startsWith("STOP_") && (
          <p className="mt-1 text-xs text-ink-muted">Stop orders are sell stop-loss orders.</p>
        )}
        {errors.side && (
          <p role="alert" className="mt-1 text-xs font-medium text-sell">
            {errors.side.message}
          </p>
        )}
      </fieldset>

      {shown.map((field) => (
        <Field
          key={field}
          label={`${FIELD_LABELS[field]} (${field === "base_amount" ? base : quote})`}
          error={errors[field]?.message}
          hint={field.endsWith("price") ? `Tick size ${MARKET_DETAILS[market].tick_rate}` : undefined}
        >
          {({ id, describedBy, invalid }) => (
            <div>
              <input
                id={id}
                inputMode="decimal"
                autoComplete="off"
                aria-describedby={describedBy}
                aria-invalid={invalid}
                className={inputClass(invalid)}
                {...register(field)}
              />
              {presetsFor(field) && (
                <div className="mt-1 flex gap-1" role="group" aria-label={`${FIELD_LABELS[field]} from balance`}>
                  {[25, 50, 100].map((p) => (
                    <Button
                      key={p}
                      variant="secondary"
                      className="px-2 py-0.5 text-xs"
                      onClick={() => preset(field, p)}
                    >
                      {p}%
                    </Button>
                  ))}
                </div>
              )}
            </div>
          )}
        </Field>
      ))}

      <div className="grid grid-cols-2 gap-3">
        <Field label="Time in force" error={errors.time_in_force?.message}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              aria-describedby={describedBy}
              className={inputClass(invalid)}
              {...register("time_in_force")}
            >
              {timeInForceFor(type).valid.map((t) => (
                <option key={t} value={t}>
                  {TIF_LABELS[t]}
                  {t === timeInForceFor(type).default ? " (default)" : ""}
                </option>
              ))}
            </select>
          )}
        </Field>
        {tif === "GTT" && (
          <Field
            label="Expires (your local time)"
            error={errors.expiration_date?.message}
            hint={
              values.expiration_date
                ? `Sent as ${toOrderRequest(values).expiration_date ?? "—"}`
                : "More than 10 seconds from now"
            }
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                type="datetime-local"
                step={1}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                className={inputClass(invalid)}
                {...register("expiration_date")}
              />
            )}
          </Field>
        )}
      </div>

      <MarketPanel
        market={market}
        profileId={profileId}
        notional={estimateNotional(values, ticker.data?.best_bid.price)}
      />

      <details className="rounded-md border border-slate-200 p-3">
        <summary className="cursor-pointer text-sm font-semibold">Advanced</summary>
        <div className="mt-3 space-y-3">
          <Field
            label="Ref ID"
            error={errors.ref_id?.message}
            hint="Idempotence key: a retry with the same ref_id never places a second order."
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
          <div className="grid grid-cols-2 gap-3">
            <Field label="Identity ID" error={errors.identity_id?.message}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  className={inputClass(invalid)}
                  {...register("identity_id")}
                />
              )}
            </Field>
            <Field label="Identity account ID" error={errors.identity_account_id?.message}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  className={inputClass(invalid)}
                  {...register("identity_account_id")}
                />
              )}
            </Field>
          </div>
          <Field
            label="Recipient profile"
            error={errors.recipient_profile_id?.message}
            hint={`Receives the ${side === "BUY" ? base : quote} this order settles.`}
          >
            {({ id, describedBy, invalid }) => (
              <select
                id={id}
                aria-describedby={describedBy}
                className={inputClass(invalid)}
                {...register("recipient_profile_id")}
              >
                <option value="">The ordering profile</option>
                {profiles.data?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.nickname}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Self-match prevention ID"
            error={errors.self_match_prevention_id?.message}
            hint={`At most ${SELF_MATCH_PREVENTION_ID_MAX_CHARS} characters.`}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                className={inputClass(invalid)}
                {...register("self_match_prevention_id")}
              />
            )}
          </Field>
          <Field
            label="Wait for fill (ms)"
            error={errors.await_fill_millis?.message}
            hint={`0 to ${AWAIT_FILL_MAX_MILLIS}: the service answers once filled or when the wait ends.`}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                inputMode="numeric"
                aria-describedby={describedBy}
                aria-invalid={invalid}
                className={inputClass(invalid)}
                {...register("await_fill_millis")}
              />
            )}
          </Field>
        </div>
      </details>
    </>
  );
}
