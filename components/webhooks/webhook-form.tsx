"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { TextField } from "@/components/forms/form-fields";
import { listErrorOf } from "@/components/forms/list-error";
import { hasFieldErrors, showFieldErrors } from "@/components/forms/server-problem";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { NewSecret } from "@/components/ui/new-secret";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { api, problemOf } from "@/lib/client/api";
import { EVENT_TYPES, WEBHOOK_DESCRIPTION_MAX, type WebhookView } from "@/lib/shared/webhooks";
import type { Problem } from "@/lib/spec/problem";
import { EVENT_WORDS } from "./event-words";
import { emptyWebhook, webhookResolver, type WebhookOutput, type WebhookValues } from "./webhook-form-values";
import { webhookKeys } from "./webhook-keys";

/** What `POST /api/webhooks` answers: the webhook and its signing secret, shown this once. */
interface Created {
  webhook: WebhookView;
  secret: string;
}

const EVENTS_ERROR_ID = "webhook-events-error";

/**
 * A new webhook (issue 30): where to send (the URL), what (each event, or all of them) and a
 * description. Each refused field shows its rule, from the shared schema before anything is sent
 * and from the server's 400 after (an http:// URL, or a host that is private, loopback, link-local
 * or the cloud's metadata address, which only the server can tell). The signing secret it answers
 * lives in this component's state only (NewSecret), never in a query's cache.
 */
export function WebhookForm() {
  const queryClient = useQueryClient();
  const resolver = useMemo(() => webhookResolver(), []);
  const form = useForm<WebhookValues, unknown, WebhookOutput>({ resolver, defaultValues: emptyWebhook() });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const eventsError = listErrorOf(form.formState.errors, "events");
  const all = useWatch({ control: form.control, name: "all" });

  const submit = form.handleSubmit(async ({ request }) => {
    setProblem(null);
    setCreated(null);
    try {
      const answer = await api<Created>("/api/webhooks", { method: "POST", body: request });
      setCreated(answer);
      form.reset(emptyWebhook());
      void queryClient.invalidateQueries({ queryKey: webhookKeys.list });
    } catch (error) {
      const p = problemOf(error);
      showFieldErrors(form, p);
      setProblem(p);
    }
  });

  return (
    <Card title="New webhook">
      <div className="space-y-4">
        {created && (
          <NewSecret
            title={`Copy the signing secret of ${created.webhook.url} now: you will not see it again`}
            secret={created.secret}
            usage={{
              intro: "The receiver verifies each delivery with it (the standardwebhooks package):",
              line: `new Webhook("${created.secret}").verify(body, headers)`,
              copyLabel: "Copy the verification line",
            }}
            onDismiss={() => setCreated(null)}
          >
            Every delivery is signed with it in its webhook-signature header (Standard Webhooks). It is stored sealed
            and never shown again: to change it, remove the webhook and add it again.
          </NewSecret>
        )}
        <FormProvider {...form}>
          <form aria-label="New webhook" noValidate onSubmit={submit} className="space-y-4">
            <p className="text-sm text-ink-muted">
              The dashboard posts each event chosen here to the URL, signed, and tries again on a failure for about a
              day. Only https:// to a public address: private, loopback, link-local and metadata addresses are refused.
            </p>
            <div className="grid gap-4 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
              <TextField name="url" label="URL" mono hint="Such as https://ledger.example.com/hooks/treasury." />
              <TextField
                name="description"
                label="Description"
                hint={`What receives it, such as “ledger sync”. At most ${WEBHOOK_DESCRIPTION_MAX} characters.`}
              />
            </div>
            <fieldset aria-describedby={eventsError ? EVENTS_ERROR_ID : undefined}>
              <legend className="text-sm font-medium text-ink">Events</legend>
              <label className="mt-1 flex min-h-11 items-start gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm">
                <input
                  type="checkbox"
                  aria-describedby="webhook-all-note"
                  aria-invalid={Boolean(eventsError)}
                  className="mt-0.5 size-4 shrink-0"
                  {...form.register("all")}
                />
                <span className="min-w-0">
                  <span className="font-medium">All events</span>
                  <span id="webhook-all-note" className="block text-xs text-ink-muted">
                    Every event below, and any added to the dashboard later.
                  </span>
                </span>
              </label>
              <ul className="mt-2 grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
                {EVENT_TYPES.map((type) => {
                  const noteId = `webhook-event-${type.replace(/\W/g, "-")}-note`;
                  return (
                    <li key={type}>
                      <label
                        className={`flex min-h-11 items-start gap-2 rounded-md border px-3 py-2 text-sm ${
                          all ? "border-dashed border-slate-300 text-ink-muted" : "border-slate-300"
                        }`}
                      >
                        <input
                          type="checkbox"
                          value={type}
                          disabled={all}
                          aria-describedby={noteId}
                          aria-invalid={Boolean(eventsError)}
                          className="mt-0.5 size-4 shrink-0"
                          {...form.register("events")}
                        />
                        <span className="min-w-0">
                          <span className="break-all font-mono text-xs font-medium">{type}</span>
                          <span id={noteId} className="block text-xs text-ink-muted">
                            {EVENT_WORDS[type]}
                          </span>
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
              {eventsError && (
                <p id={EVENTS_ERROR_ID} role="alert" className="mt-1 text-xs font-medium text-sell">
                  {eventsError}
                </p>
              )}
            </fieldset>
            {problem && !hasFieldErrors(problem) && <ProblemAlert problem={problem} title="Not added" />}
            <Button type="submit" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? "Adding…" : "Add webhook"}
            </Button>
          </form>
        </FormProvider>
      </div>
    </Card>
  );
}
