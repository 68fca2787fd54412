"use client";

import dynamic from "next/dynamic";
import type { ReactNode } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { api } from "@/lib/client/api";
import { formatAsset } from "@/lib/shared/format";
import { useProfileNames } from "@/lib/client/profile-names";
import { useBalances, useProfiles, type Balance } from "@/lib/client/queries";
import { percentOfDown, trimZeros } from "@/lib/spec/decimal";
import { ASSETS } from "@/lib/spec/markets";
import { isHeld, type Held } from "@/lib/shared/approval";
import type { Transfer } from "@/lib/spec/transfer";
import { CreateFooter } from "../forms/create-footer";
import { RefIdField, SelectField, TextField } from "../forms/form-fields";
import { FractionButtons } from "../forms/fraction-buttons";
import { useFundsContext } from "../forms/funds-context";
import { MetadataEditor } from "../forms/lazy-metadata-editor";
import { newRefId } from "@/lib/shared/ref-id";
import { useCreateFlow } from "../forms/use-create-flow";
import { Card } from "../ui/card";
import { describeTransfer, type TransferNames } from "@/lib/shared/describe-transfer";
import { transferDefaults, transferResolver, type TransferOutput, type TransferValues } from "./transfer-form-values";

/** The result card loads with the first send, not with the page (the first-load budget). */
const TransferResult = dynamic(() => import("./transfer-result").then((m) => m.TransferResult));

const AMOUNT_SCALE = 8;
const IDENTITY_FIELDS = [
  ["from_identity_id", "From identity ID"],
  ["from_account_id", "From account ID"],
  ["to_identity_id", "To identity ID"],
  ["to_account_id", "To account ID"],
] as const;

/** The two profiles of a transfer, in its request. */
type Sides = { from_profile_id: string; to_profile_id: string };

const availableOf = (balances: Balance[] | undefined, asset: string) =>
  balances?.find((b) => b.asset === asset)?.available ?? (balances ? "0" : undefined);

/**
 * Operations' internal transfer between two profiles, checked against the service's rules
 * first; the desk's approval rules said before review
 * (`controlsLine`, rendered on the server).
 */
export function TransferForm({ controlsLine }: { controlsLine: ReactNode }) {
  const { profiles, nickname } = useProfileNames();
  const profilesLoading = useProfiles().isLoading;
  const funds = useFundsContext(nickname);
  const namesOf = (r: Sides): TransferNames => ({
    from: nickname(r.from_profile_id),
    to: nickname(r.to_profile_id),
  });
  const form = useForm<TransferValues, unknown, TransferOutput>({
    resolver: transferResolver,
    defaultValues: transferDefaults(),
    // Checked on Review, then as the user corrects: no error appears (and moves the button) mid-click.
    mode: "onSubmit",
    // The balance the transfer must fit, for the funds check before the review.
    context: funds,
  });
  const values = useWatch({ control: form.control }) as TransferValues;
  const fromBalances = useBalances(values.from_profile_id || undefined);
  const toBalances = useBalances(values.to_profile_id || undefined);
  const flow = useCreateFlow(form, {
    send: ({ request }, headers) =>
      api<Transfer | Held>("/api/v2/transfer/internal", { method: "POST", body: request, headers }).then((answer) =>
        isHeld(answer) ? answer : { transfer: answer, names: namesOf(request) },
      ),
    decline: ({ request }, repeatOf) =>
      api("/api/activity/declined", {
        method: "POST",
        body: { kind: "transfer", request, duplicate_of: repeatOf },
      }),
    refresh: ["transfers", "balances", "activity", "submitters", "approvals"],
    clearAfterSend: ["amount"],
    focusAfterSend: () => "amount",
  });
  const available = availableOf(fromBalances.data, values.asset);
  const profileOptions = profiles.map((p) => ({ value: p.id, label: p.nickname }));
  const sides = [
    ["from_profile_id", "From profile", fromBalances],
    ["to_profile_id", "To profile", toBalances],
  ] as const;
  const placeholder = profilesLoading ? "Loading profiles…" : "Choose a profile";
  const balanceHint = (id: string, balances: Balance[] | undefined) => {
    const held = availableOf(balances, values.asset);
    return id ? `${values.asset} available: ${held === undefined ? "…" : formatAsset(held, values.asset)}` : undefined;
  };

  return (
    <Card title="Internal transfer">
      <FormProvider {...form}>
        <form onSubmit={flow.openReview} noValidate aria-label="Internal transfer" className="space-y-4">
          <fieldset disabled={flow.review !== null} className="space-y-4">
            {sides.map(([name, label, balances]) => (
              <SelectField
                key={name}
                name={name}
                label={label}
                options={profileOptions}
                placeholder={placeholder}
                hint={balanceHint(values[name], balances.data)}
              />
            ))}
            <div className="grid grid-cols-[8rem_1fr] gap-3">
              <SelectField name="asset" label="Asset" options={ASSETS.map((a) => ({ value: a, label: a }))} />
              <div>
                <TextField name="amount" label="Amount" inputMode="decimal" unit="amount" />
                <FractionButtons
                  field="Amount"
                  disabled={!available}
                  onPick={(percent) =>
                    available &&
                    form.setValue("amount", trimZeros(percentOfDown(available, percent, AMOUNT_SCALE)), {
                      shouldValidate: true,
                    })
                  }
                />
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
          <CreateFooter
            what="transfer"
            flow={flow}
            describe={({ request }) => ({
              sentence: describeTransfer(request, namesOf(request)),
              details: [["ref_id", request.ref_id]],
              preview: { kind: "transfer", request },
            })}
            controlsLine={controlsLine}
            result={({ transfer, names }) => <TransferResult transfer={transfer} names={names} />}
            sent={(transfer, held) => (
              <TransferResult transfer={transfer as Transfer} names={namesOf(held.request as Sides)} />
            )}
          />
        </form>
      </FormProvider>
    </Card>
  );
}
