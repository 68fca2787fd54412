"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, type ReactNode } from "react";
import { FormProvider, useForm, useWatch, type UseFormReturn } from "react-hook-form";
import { api } from "@/lib/client/api";
import { useProfileNames } from "@/lib/client/profile-names";
import { rememberedTicketProfile, rememberTicketProfile } from "@/lib/client/ticket-profile";
import { useOfferedMarkets } from "@/lib/client/use-markets";
import { useTimeZone } from "@/lib/client/time-zone";
import { levelPrice } from "@/lib/shared/ticker";
import { useBalances, useTicker } from "@/lib/client/queries";
import { ORDER_TYPES, ORDER_TYPE_WORDS } from "@/lib/spec/enums";
import { AWAIT_FILL_MAX_MILLIS, SELF_MATCH_PREVENTION_ID_MAX_CHARS } from "@/lib/spec/limits";
import { MARKET_DETAILS, marketLabel } from "@/lib/spec/markets";
import type { Order } from "@/lib/spec/order";
import { FIELD_LABELS, quantityRuleFor, sidesFor, type QuantityField } from "@/lib/spec/order-rules";
import { timeInForceFor } from "@/lib/spec/time-in-force";
import { CreateFooter } from "../forms/create-footer";
import { RefIdField, SelectField, TextField } from "../forms/form-fields";
import { FractionButtons } from "../forms/fraction-buttons";
import { useFundsContext } from "../forms/funds-context";
import { MetadataEditor } from "../forms/lazy-metadata-editor";
import { newRefId } from "@/lib/shared/ref-id";
import { createParentOrder, type ParentOrderAnswer } from "@/lib/client/parent-orders";
import {
  PARENT_DURATION_MAX_SECONDS,
  PARENT_DURATION_MIN_SECONDS,
  PARENT_SLICE_MIN_SECONDS,
  PARENT_SLICES_MAX,
  PARENT_SLICES_MIN,
} from "@/lib/shared/parent-order";
import { formatCount } from "@/lib/shared/format";
import { useCreateFlow } from "../forms/use-create-flow";
import { Card } from "../ui/card";
import { describeOrder } from "@/lib/shared/describe-order";
import { describeParentOrder, durationWords } from "@/lib/shared/parent-order-words";
import { durationSecondsOf, DURATION_UNITS, sliceEvery, slicesOf } from "./describe-parent-order";
import { MarketPanel } from "./market-panel";
import { useOrderMids } from "./market-prices";
import {
  amountFromBalance,
  estimateWorthUsd,
  expiryInBothZones,
  fillsFromBalance,
  PARENT_FIELD_OF,
  sideForKey,
  staleExpiry,
  stopTriggersAtOnce,
  ticketDefaults,
  ticketResolver,
  timeInForceAfterTypeChange,
  type TicketOutput,
  type TimeInForceChoices,
  type TicketValues,
  wholeOrderOf,
  worksOverTime,
} from "./ticket-form";

const TIF_LABELS = {
  GTC: "GTC — good till cancelled",
  IOC: "IOC — immediate or cancel",
  FOK: "FOK — fill or kill",
  GTT: "GTT — good till time",
};
/** The result card loads with the first send, not with the page (the first-load budget). */
const OrderResult = dynamic(() => import("./order-result").then((m) => m.OrderResult));
const ParentResult = dynamic(() => import("./parent-result").then((m) => m.ParentResult));

/** What the ticket's send answers: the service's order, or a TWAP parent order (and its approval when held). */
type Placed = Order | ParentOrderAnswer;
const isParentAnswer = (answer: unknown): answer is ParentOrderAnswer =>
  typeof answer === "object" && answer !== null && "parent_order" in answer;
/** The card for what was placed: the order followed at the service, or the parent followed as it is worked. */
const placedCard = (placed: unknown) =>
  isParentAnswer(placed) ? <ParentResult parent={placed.parent_order} /> : <OrderResult order={placed as Order} />;

/** Quantity fields in the order a trader reads them. */
const QUANTITY_ORDER: QuantityField[] = ["stop_price", "price", "base_amount", "quote_amount"];
/** The amount field a trader types next: the base amount, or a market buy's quote amount. */
const firstAmountField = (v: TicketValues): "base_amount" | "quote_amount" =>
  quantityRuleFor(v.type, v.side).required.includes("base_amount") ? "base_amount" : "quote_amount";

/**
 * Treasury's order ticket: every rule of the service checked on its field before anything is
 * sent; the desk's limits and approval rules said before review
 * (`controlsLine`, rendered on the server: no script for it in the page's first load). It starts
 * from the profile the signed-in person (`email`) last chose in this browser.
 */
export function OrderTicket({ email, controlsLine }: { email: string; controlsLine: ReactNode }) {
  const { nickname } = useProfileNames();
  const { zone } = useTimeZone();
  const funds = useFundsContext(nickname);
  const form = useForm<TicketValues, unknown, TicketOutput>({
    resolver: ticketResolver,
    defaultValues: ticketDefaults(),
    // Checked on Review, then as the user corrects: no error appears (and moves the button) mid-click.
    mode: "onSubmit",
    // The balance the order must fit, for the funds check before the review.
    context: funds,
  });
  const flow = useCreateFlow<TicketValues, TicketOutput, Placed>(form, {
    send: (output, headers) =>
      output.kind === "parent"
        ? createParentOrder(output.request, headers)
        : api<Order>(`/api/v2/profiles/${encodeURIComponent(output.profileId)}/orders`, {
            method: "POST",
            body: output.request,
            headers,
          }),
    // Only an order is asked whether it repeats one sent moments ago.
    decline: (output, repeatOf) =>
      output.kind === "parent"
        ? Promise.resolve()
        : api("/api/activity/declined", {
            method: "POST",
            body: { kind: "order", profile_id: output.profileId, request: output.request, duplicate_of: repeatOf },
          }),
    refresh: ["orders", "parent-orders", "balances", "activity", "submitters", "approvals"],
    clearAfterSend: ["base_amount", "quote_amount"],
    focusAfterSend: () => firstAmountField(form.getValues()),
    recheck: (output) => {
      const message = output.kind === "order" ? staleExpiry(output.request) : undefined;
      return message ? { field: "expiration_date", message } : undefined;
    },
    fieldOf: PARENT_FIELD_OF,
  });
  useSideShortcuts(form, flow.review !== null);

  return (
    <Card title="Order ticket">
      <FormProvider {...form}>
        <form onSubmit={flow.openReview} noValidate aria-label="Order ticket" className="space-y-4">
          <fieldset disabled={flow.review !== null} className="space-y-4">
            <TicketFields form={form} email={email} reviewing={flow.review !== null} />
          </fieldset>
          <CreateFooter
            what="order"
            flow={flow}
            describe={(output) =>
              output.kind === "parent"
                ? {
                    sentence: `${describeParentOrder(output.request, nickname(output.profileId))}.`,
                    details: [
                      ["ref_id", output.request.ref_id],
                      [
                        "children",
                        output.request.ref_id &&
                          `LIMIT IOC ${output.request.ref_id}-1 … ${output.request.ref_id}-${output.request.slices}`,
                      ],
                    ],
                    // The controls weigh the parent whole: its full amount at its cap.
                    preview: { kind: "order", profileId: output.profileId, request: wholeOrderOf(output.request) },
                  }
                : {
                    sentence: describeOrder(output.request, nickname(output.profileId), {
                      recipientName:
                        output.request.recipient_profile_id && nickname(output.request.recipient_profile_id),
                      zone,
                    }),
                    details: [
                      ["ref_id", output.request.ref_id],
                      ["expiration_date", output.request.expiration_date],
                    ],
                    preview: { kind: "order", profileId: output.profileId, request: output.request },
                  }
            }
            controlsLine={controlsLine}
            result={placedCard}
            sent={placedCard}
          />
        </form>
      </FormProvider>
    </Card>
  );
}

/** B and S choose Buy and Sell while focus is not in a field that takes text, and no review is open. */
function useSideShortcuts(form: UseFormReturn<TicketValues, unknown, TicketOutput>, reviewing: boolean) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const side = sideForKey(e);
      if (!side || reviewing || !sidesFor(form.getValues("type")).includes(side)) return;
      e.preventDefault();
      form.setValue("side", side);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [form, reviewing]);
}

function TicketFields({
  form,
  email,
  reviewing,
}: {
  form: UseFormReturn<TicketValues, unknown, TicketOutput>;
  email: string;
  /** While the review is open, its "Worth about" (the controls' own figure) is the ticket's one estimate. */
  reviewing: boolean;
}) {
  const { register, setValue, formState } = form;
  const errors = formState.errors;
  const values = useWatch({ control: form.control }) as TicketValues;
  const { type, side, market, profile_id: profileId, time_in_force: tif } = values;
  const profiles = useProfileNames();
  const markets = useOfferedMarkets();
  useOfferedMarket(form, market, markets);
  useRememberedProfile(form, email, profiles.profiles);
  // Only a pick in the select counts, so a type change never keeps another type's value.
  const tifChoices = useRef<TimeInForceChoices>({});
  const ticker = useTicker(market);
  const mids = useOrderMids(market);
  const balances = useBalances(profileId || undefined);
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[market];
  const rule = quantityRuleFor(type, side);
  const shown = QUANTITY_ORDER.filter((f) => rule.required.includes(f));
  const stopWarning = stopTriggersAtOnce(values, levelPrice(ticker.data?.last_execution));
  const overTime = worksOverTime(values);
  const priceHint = (field: QuantityField) => (
    <>
      Tick size {MARKET_DETAILS[market].tick_rate}
      {field === "stop_price" && stopWarning && (
        <span data-testid="stop-warning" className="mt-0.5 block font-medium text-warn">
          {stopWarning}
        </span>
      )}
    </>
  );

  const fill = (field: QuantityField, percent: number) => {
    const amount = amountFromBalance(field, percent, values, balances.data);
    if (amount !== undefined) setValue(field, amount, { shouldValidate: true });
  };

  const profileOptions = profiles.profiles.map((p) => ({ value: p.id, label: p.nickname }));

  return (
    <>
      <SelectField
        name="profile_id"
        label="Profile"
        options={profileOptions}
        placeholder={profiles.loading ? "Loading profiles…" : "Choose a profile"}
        registerOptions={{
          onChange: (e: { target: { value: string } }) => rememberTicketProfile(email, e.target.value),
        }}
      />
      <div className="grid grid-cols-2 gap-3">
        <SelectField
          name="market"
          label="Market"
          options={markets.map((m) => ({
            value: m,
            label: marketLabel(m),
          }))}
        />
        <SelectField
          name="type"
          label="Order type"
          options={ORDER_TYPES.map((t) => ({
            value: t,
            label: ORDER_TYPE_WORDS[t].replace(/^./, (c) => c.toUpperCase()),
          }))}
          registerOptions={{
            onChange: (e: { target: { value: TicketValues["type"] } }) => {
              const next = e.target.value;
              setValue("time_in_force", timeInForceAfterTypeChange(next, tifChoices.current));
              if (!sidesFor(next).includes(form.getValues("side"))) setValue("side", "SELL");
            },
          }}
        />
      </div>
      <SideChoice type={type} side={side} error={errors.side?.message} register={register} />
      {type === "LIMIT" && <OverTimeChoice register={register} />}

      {shown.map((field) => (
        <div key={field}>
          <TextField
            name={field}
            label={
              overTime && field === "price"
                ? `Cap: limit price (${quote})`
                : `${FIELD_LABELS[field]} (${field === "base_amount" ? base : quote})`
            }
            inputMode="decimal"
            hint={
              overTime && field === "price" ? (
                <>
                  No slice {side === "BUY" ? "buys above" : "sells below"} it. {priceHint(field)}
                </>
              ) : field.endsWith("price") ? (
                priceHint(field)
              ) : undefined
            }
          />
          {fillsFromBalance(field, values) && (
            <FractionButtons field={FIELD_LABELS[field]} onPick={(percent) => fill(field, percent)} />
          )}
        </div>
      ))}

      {overTime ? (
        <OverTimeFields values={values} />
      ) : (
        <div className={tif === "GTT" ? "grid grid-cols-2 gap-3" : ""}>
          {/* One select per order type, drawn with that type's choices: a select kept across types would
            show its first choice for a value its old choices lacked, not the value sent. */}
          <SelectField
            key={type}
            name="time_in_force"
            label="Time in force"
            options={timeInForceFor(type).valid.map((t) => ({
              value: t,
              label: `${TIF_LABELS[t]}${t === timeInForceFor(type).default ? " (default)" : ""}`,
            }))}
            registerOptions={{
              onChange: (e: { target: { value: TicketValues["time_in_force"] } }) => {
                tifChoices.current = { ...tifChoices.current, [form.getValues("type")]: e.target.value };
              },
            }}
          />
          {tif === "GTT" && (
            <TextField
              name="expiration_date"
              label="Expires (your local time)"
              type="datetime-local"
              step={1}
              hint={
                (values.expiration_date && expiryInBothZones(values.expiration_date)) ?? "More than 10 seconds from now"
              }
            />
          )}
        </div>
      )}

      <MarketPanel market={market} profileId={profileId} worthUsd={reviewing ? null : estimateWorthUsd(values, mids)} />

      <details className="rounded-md border border-slate-200 p-3">
        <summary className="cursor-pointer text-sm font-semibold">Advanced</summary>
        <div className="mt-3 space-y-3">
          <RefIdField what={overTime ? "parent order" : "order"} fresh={newRefId} />
          {/* A parent order's children are the dashboard's own LIMIT IOC orders: none of these is sent with them. */}
          {!overTime && (
            <>
              <MetadataEditor name="metadata" label="Metadata" />
              <div className="grid grid-cols-2 gap-3">
                <TextField name="identity_id" label="Identity ID" />
                <TextField name="identity_account_id" label="Identity account ID" />
              </div>
              <SelectField
                name="recipient_profile_id"
                label="Recipient profile"
                hint={`Receives the ${side === "BUY" ? base : quote} this order settles.`}
                options={profileOptions}
                placeholder="The ordering profile"
              />
              <TextField
                name="self_match_prevention_id"
                label="Self-match prevention ID"
                hint={`At most ${SELF_MATCH_PREVENTION_ID_MAX_CHARS} characters.`}
              />
              <TextField
                name="await_fill_millis"
                label="Wait for fill (ms)"
                inputMode="numeric"
                hint={`0 to ${AWAIT_FILL_MAX_MILLIS}: the service answers once filled or when the wait ends.`}
              />
            </>
          )}
        </div>
      </details>
    </>
  );
}

/** The choice to work a limit order over time: a TWAP parent order, sent in slices (issue 29). */
function OverTimeChoice({ register }: { register: UseFormReturn<TicketValues, unknown, TicketOutput>["register"] }) {
  return (
    <label className="flex min-h-9 cursor-pointer items-center gap-2 text-sm font-medium">
      <input type="checkbox" className="size-4" {...register("over_time")} />
      Work over time (TWAP)
    </label>
  );
}

const DURATION_UNIT_OPTIONS = (Object.keys(DURATION_UNITS) as (keyof typeof DURATION_UNITS)[]).map((u) => ({
  value: u,
  label: u,
}));

/**
 * A parent order's schedule: how long to work it (in minutes, seconds or hours) and in how many
 * slices; each slice a limit order, immediate or cancel, at the best price capped by the price above.
 */
function OverTimeFields({ values }: { values: TicketValues }) {
  const every = sliceEvery(durationSecondsOf(values.duration, values.duration_unit), slicesOf(values.slices));
  return (
    <div className="space-y-3" data-testid="over-time-fields">
      <div className="grid grid-cols-2 gap-3">
        <TextField
          name="duration"
          label="Duration"
          inputMode="decimal"
          hint={`${durationWords(PARENT_DURATION_MIN_SECONDS)} to ${durationWords(PARENT_DURATION_MAX_SECONDS)} (${formatCount(PARENT_DURATION_MIN_SECONDS)} to ${formatCount(PARENT_DURATION_MAX_SECONDS)} seconds)`}
        />
        <SelectField name="duration_unit" label="Duration unit" options={DURATION_UNIT_OPTIONS} />
      </div>
      <TextField
        name="slices"
        label="Slices"
        inputMode="numeric"
        hint={
          every
            ? `${every.replace(/^./, (c) => c.toUpperCase())}.`
            : `${PARENT_SLICES_MIN} to ${PARENT_SLICES_MAX}, at least ${PARENT_SLICE_MIN_SECONDS} seconds apart.`
        }
      />
      <p className="text-xs text-ink-muted">
        Each slice is a limit order, immediate or cancel, at the best price on its side, never past the cap; what one
        leaves unfilled goes with the next.
      </p>
    </div>
  );
}

/** A market the service does not list (the spec's GOLDUSD at a service that has none) is not kept chosen. */
function useOfferedMarket(
  form: UseFormReturn<TicketValues, unknown, TicketOutput>,
  market: TicketValues["market"],
  offered: readonly TicketValues["market"][],
) {
  const missing = !offered.includes(market);
  useEffect(() => {
    if (missing && offered[0]) form.setValue("market", offered[0]);
  }, [form, missing, offered]);
}

/** Once the person's profiles load, the one they last chose here, if it is still theirs and none is chosen yet. */
function useRememberedProfile(
  form: UseFormReturn<TicketValues, unknown, TicketOutput>,
  email: string,
  profiles: readonly { id: string }[],
) {
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || profiles.length === 0) return;
    restored.current = true;
    const id = rememberedTicketProfile(email, profiles);
    if (id && !form.getValues("profile_id")) form.setValue("profile_id", id);
  }, [form, email, profiles]);
}

/** Buy or sell as two large toggles; stop orders allow only sell. */
function SideChoice({
  type,
  side,
  error,
  register,
}: {
  type: TicketValues["type"];
  side: TicketValues["side"];
  error?: string;
  register: UseFormReturn<TicketValues, unknown, TicketOutput>["register"];
}) {
  return (
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
      {error && (
        <p role="alert" className="mt-1 text-xs font-medium text-sell">
          {error}
        </p>
      )}
    </fieldset>
  );
}
