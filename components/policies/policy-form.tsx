"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import {
  FormProvider,
  get,
  useFieldArray,
  useForm,
  useFormContext,
  useWatch,
  type UseFormReturn,
} from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { SelectField, TextField } from "@/components/forms/form-fields";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { TableError } from "@/components/ui/table-message";
import { useToast } from "@/components/ui/toasts";
import { api, problemOf } from "@/lib/client/api";
import { approvalKeys, type Approval } from "@/lib/client/approval-feed";
import { formatUsd } from "@/lib/shared/format";
import { policyIfValid, type Policy, type PolicyDocument } from "@/lib/shared/policy";
import { loosensAnything, policyChanges, type PolicyChange } from "@/lib/shared/policy-changes";
import type { Problem } from "@/lib/spec/problem";
import { APPROVAL_RULE_WORDS, NO_RULE_WORDS, rollingExample } from "./approval-rule-words";
import { PolicyShape } from "./policy-shape";
import { useReadPolicyOnDecisions, useWaitingPolicyChanges, WaitingChanges } from "./waiting-changes";
import {
  ORDER_ROLES,
  policyResolver,
  policyValues,
  toPolicyDocument,
  type PolicyOutput,
  type PolicyValues,
} from "./policy-form-values";

export const policyKey = ["policy"] as const;

/**
 * The Policies page: loads the policy in force and the changes waiting for approval, then shows
 * both, the waiting ones above the form that holds the policy in force. Its shape shows until
 * both are in, so the notices do not push the form down as they arrive.
 */
export function PolicyEditor() {
  const policy = useQuery({
    queryKey: policyKey,
    queryFn: ({ signal }) => api<{ policy: Policy }>("/api/policies", { signal }).then((r) => r.policy),
    // An open form is not reset under the person editing it.
    refetchOnWindowFocus: false,
  });
  const pending = useWaitingPolicyChanges();
  useReadPolicyOnDecisions(pending.dataUpdatedAt, policyKey);
  if (policy.isError) return <TableError error={policy.error} what="the policy" onRetry={() => policy.refetch()} />;
  if (!policy.data || pending.isPending) return <PolicyShape />;
  return (
    <div className="space-y-4">
      {pending.isError && !pending.data && (
        <ProblemAlert problem={problemOf(pending.error)} title="Could not load the changes waiting for approval" />
      )}
      <WaitingChanges approvals={pending.waiting ?? []} inForce={policy.data} />
      <PolicyForm policy={policy.data} waiting={(pending.waiting?.length ?? 0) > 0} />
    </div>
  );
}

/**
 * The approval rules (threshold, approvals needed, how long a request stays open) for
 * transfers and orders, the pre-trade limits and the price guard, checked in the browser by
 * the server's own schema (lib/shared/policy.ts) and sent whole; the server's refusals land on
 * their fields too. Before it is sent the page lists what the change does and says which of
 * two it is: one that loosens anything waits for an approver or another admin (202), one that
 * only tightens applies at once.
 */
function PolicyForm({ policy, waiting }: { policy: Policy; waiting: boolean }) {
  const client = useQueryClient();
  const notify = useToast();
  const resolver = useMemo(() => policyResolver(policy), [policy]);
  const form = useForm<PolicyValues, unknown, PolicyOutput>({
    defaultValues: policyValues(policy),
    resolver,
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const [problem, setProblem] = useState<Problem | null>(null);
  const draft = useWatch({ control: form.control }) as PolicyValues;
  const changes = useMemo(() => {
    const next = policyIfValid(toPolicyDocument(draft, policy));
    return next && policyChanges(policy, next, formatUsd);
  }, [draft, policy]);
  const loosens = changes !== undefined && loosensAnything(changes);
  const { isDirty } = form.formState;
  // A new policy in force (a change approved meanwhile) replaces the fields, unless they are being edited.
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(policyValues(policy));
  }, [policy, form]);
  const save = useMutation({
    mutationFn: (next: PolicyDocument) =>
      api<{ policy: Policy } | { approval: Approval }>("/api/policies", { method: "PUT", body: next }),
    onMutate: () => setProblem(null),
    onSuccess: (answer) => {
      if ("approval" in answer) {
        form.reset(policyValues(policy));
        // Shown waiting at once, above the policy in force; the list is read again to be sure.
        client.setQueryData<Approval[]>(approvalKeys.list("PENDING"), (items) =>
          items && !items.some((a) => a.id === answer.approval.id) ? [answer.approval, ...items] : items,
        );
        void client.invalidateQueries({ queryKey: approvalKeys.list("PENDING") });
        notify({
          title: "Policy change sent for approval",
          detail:
            "It loosens the controls, so it applies once an approver or another admin approves it; until then the policy in force applies.",
          tone: "success",
        });
        return;
      }
      client.setQueryData(policyKey, answer.policy);
      form.reset(policyValues(answer.policy));
      notify({ title: "Policy saved", detail: "It applies to requests made from now on.", tone: "success" });
    },
    onError: (error) => {
      const p = problemOf(error);
      setProblem(p);
      showServerErrors(form, p);
    },
  });

  return (
    <FormProvider {...form}>
      <form
        aria-label="Policy"
        noValidate
        onSubmit={form.handleSubmit((out) => save.mutate(out.request))}
        className="grid items-start gap-6 xl:grid-cols-2"
      >
        <InForce editing={isDirty} waiting={waiting} />
        <Card title="Approval rules (four eyes)" className="xl:col-span-2">
          <ApprovalRules inForce={policy} />
        </Card>
        <Card title="Pre-trade limits">
          <div className="grid gap-4 sm:grid-cols-2">
            {ORDER_ROLES.map((role) => (
              <TextField
                inputMode="decimal"
                unit="amount"
                key={role}
                name={`limits.max_order_notional_usd.${role}`}
                label={`Largest order, ${role} (USD)`}
                hint="Blank: no limit"
              />
            ))}
            <TextField
              inputMode="decimal"
              unit="amount"
              name="limits.daily_order_notional_usd_per_user"
              label="Orders per person per UTC day (USD)"
              hint="Blank: no limit. Orders sent (approved or not) or waiting for approval count."
            />
            <TextField
              inputMode="decimal"
              unit="amount"
              name="limits.daily_transfer_usd_per_user"
              label="Transfers per person per UTC day (USD)"
              hint="Blank: no limit. Transfers sent (approved or not) or waiting for approval count."
            />
          </div>
        </Card>
        <Card title="Price guard">
          <TextField
            inputMode="decimal"
            unit="%"
            name="limits.price_guard_percent"
            label="Confirm orders taking liquidity further from the mid than (%)"
            hint="A percentage such as 5 or 12.5. The person types the market's name to send such an order."
          />
        </Card>
        <div className="space-y-3 xl:col-span-2">
          {changes && changes.length > 0 && <ChangeSummary changes={changes} loosens={loosens} />}
          {problem && <ProblemAlert problem={problem} title="The policy was not saved" />}
          <div className="flex gap-3">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving…" : loosens ? "Ask for approval" : "Save policy"}
            </Button>
            <Button
              variant="secondary"
              disabled={save.isPending || !isDirty}
              onClick={() => {
                form.reset(policyValues(policy));
                setProblem(null);
              }}
            >
              Undo changes
            </Button>
          </div>
        </div>
      </form>
    </FormProvider>
  );
}

/** What the change does, field by field, and which of the two it is, before it is sent. */
function ChangeSummary({ changes, loosens }: { changes: PolicyChange[]; loosens: boolean }) {
  return (
    <section aria-label="This change" data-testid="policy-change" className="space-y-2 rounded-md border p-3 text-sm">
      <p className={`font-semibold ${loosens ? "text-warn" : ""}`} data-testid="policy-change-kind">
        {loosens
          ? "This change loosens the controls: it waits for an approver or another admin, and applies once approved."
          : "This change only tightens the controls: it applies at once."}
      </p>
      <ul className="list-disc pl-5">
        {changes.map((c) => (
          <li key={c.field}>
            {c.label}: {c.before} → {c.after} ({c.loosens ? "loosens" : "tightens"})
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the fields show: the policy in force, or the person's edits of it, not yet sent. */
function InForce({ editing, waiting }: { editing: boolean; waiting: boolean }) {
  return (
    <div data-testid="policy-in-force" className="xl:col-span-2">
      <h2 className="text-base font-semibold">Policy in force</h2>
      <p className="text-sm text-ink-muted">
        {editing
          ? "The fields hold your changes, not yet sent: the policy in force applies until they are saved or approved."
          : waiting
            ? "The fields show the policy that applies now; the change waiting for approval does not apply until approved."
            : "The fields show the policy that applies now."}
      </p>
    </div>
  );
}

/** The rules as enforced, in words and worked through at the rule in force, then the rules' fields. */
function ApprovalRules({ inForce }: { inForce: Policy }) {
  const { control } = useFormContext<PolicyValues>();
  const rules = useFieldArray({ control, name: "approval_rules" });
  const example = rollingExample(inForce.approval_rules, formatUsd);
  return (
    <div className="space-y-3">
      <div className="space-y-2 text-sm text-ink-muted" data-testid="approval-rule-words">
        {APPROVAL_RULE_WORDS.map((words) => (
          <p key={words}>{words}</p>
        ))}
        {example && <p>{example}</p>}
      </div>
      {rules.fields.length === 0 && <p className="text-sm">{NO_RULE_WORDS}</p>}
      <ol className="space-y-3">
        {rules.fields.map((f, i) => (
          <li key={f.id}>
            <fieldset
              aria-label={`Rule ${i + 1}`}
              className="grid items-end gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-[8rem_1fr_9rem_9rem_auto]"
            >
              <SelectField
                name={`approval_rules.${i}.kind`}
                label="Applies to"
                options={[
                  { value: "transfer", label: "Transfers" },
                  { value: "order", label: "Orders" },
                ]}
              />
              <TextField
                inputMode="decimal"
                unit="amount"
                name={`approval_rules.${i}.threshold_usd`}
                label="From (USD)"
              />
              <SelectField
                name={`approval_rules.${i}.approvals_needed`}
                label="Approvals needed"
                options={[
                  { value: "1", label: "1" },
                  { value: "2", label: "2" },
                ]}
              />
              <TextField name={`approval_rules.${i}.open_minutes`} label="Expires after (min)" inputMode="numeric" />
              <Button variant="ghost" onClick={() => rules.remove(i)} aria-label={`Remove rule ${i + 1}`}>
                Remove
              </Button>
            </fieldset>
          </li>
        ))}
      </ol>
      <Button
        variant="secondary"
        onClick={() =>
          rules.append({ kind: "transfer", threshold_usd: "", approvals_needed: "1", open_minutes: "120" })
        }
      >
        Add rule
      </Button>
    </div>
  );
}

/** A 400 names each field by its path in the document, which is the form's own name for it. */
function showServerErrors(form: UseFormReturn<PolicyValues, unknown, PolicyOutput>, problem: Problem): void {
  for (const e of (problem.meta?.errors as { field: string; message: string }[] | undefined) ?? []) {
    if (get(form.getValues(), e.field) !== undefined) {
      form.setError(e.field as never, { type: "server", message: e.message });
    }
  }
}
