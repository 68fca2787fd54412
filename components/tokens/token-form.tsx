"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { TextField } from "@/components/forms/form-fields";
import { listErrorOf } from "@/components/forms/list-error";
import { hasFieldErrors, showFieldErrors } from "@/components/forms/server-problem";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { NewSecret } from "@/components/ui/new-secret";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { api, problemOf } from "@/lib/client/api";
import { TOKEN_MAX_DAYS, type ApiTokenView } from "@/lib/shared/api-tokens";
import type { Role } from "@/lib/shared/roles";
import { scopeUsableBy, TOKEN_SCOPES, type TokenScope } from "@/lib/shared/token-scopes";
import type { Problem } from "@/lib/spec/problem";
import { emptyToken, tokenResolver, type TokenOutput, type TokenValues } from "./token-form-values";
import { tokenKeys } from "./token-keys";

/** What `POST /api/tokens` answers: the token and its secret, shown this once. */
interface Created {
  token: ApiTokenView;
  secret: string;
}

/** What each scope opens, in the person's words. */
const SCOPE_WORDS: Record<TokenScope, string> = {
  read: "Read balances, orders, transfers, batches and activity",
  trade: "Place and cancel orders",
  transfer: "Create internal transfers",
  batch: "Send batches of transfers",
};

/**
 * A new personal API token (issue 28): its name, its scopes (a scope the person's role could not
 * use is shown, disabled, with why), its life in days. Each refused field shows its rule, from
 * the shared schema before anything is sent and from the server's 400 after. The secret it
 * answers lives in this component's state only (NewSecret, components/ui), never in a query's cache: leaving the
 * page or dismissing it forgets it.
 */
export function TokenForm({ role }: { role: Role }) {
  const queryClient = useQueryClient();
  const resolver = useMemo(() => tokenResolver(), []);
  const form = useForm<TokenValues, unknown, TokenOutput>({ resolver, defaultValues: emptyToken() });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const scopesError = listErrorOf(form.formState.errors, "scopes");

  const submit = form.handleSubmit(async ({ request }) => {
    setProblem(null);
    setCreated(null);
    try {
      const answer = await api<Created>("/api/tokens", { method: "POST", body: request });
      setCreated(answer);
      form.reset(emptyToken());
      void queryClient.invalidateQueries({ queryKey: tokenKeys.list });
    } catch (error) {
      const p = problemOf(error);
      showFieldErrors(form, p);
      setProblem(p);
    }
  });

  return (
    <Card title="New API token">
      <div className="space-y-4">
        {created && <TokenSecret created={created} onDismiss={() => setCreated(null)} />}
        <FormProvider {...form}>
          <form aria-label="New API token" noValidate onSubmit={submit} className="space-y-4">
            <p className="text-sm text-ink-muted">
              A script sending the token acts as you, with your role as it is at the time, narrowed to the scopes chosen
              here. A token never approves, rejects or withdraws a request, nor changes the policy, sessions or tokens.
            </p>
            <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
              <TextField name="name" label="Name" hint="What the token is for, such as “month-end settlement job”." />
              <TextField
                name="expires_in_days"
                label="Expires in days"
                type="number"
                inputMode="numeric"
                step={1}
                hint={`From 1 to ${TOKEN_MAX_DAYS} days.`}
              />
            </div>
            <fieldset aria-describedby={scopesError ? "token-scopes-error" : undefined}>
              <legend className="text-sm font-medium text-ink">Scopes</legend>
              <ul className="mt-1 grid gap-2 sm:grid-cols-2">
                {TOKEN_SCOPES.map((scope) => {
                  const usable = scopeUsableBy(role, scope);
                  const noteId = `token-scope-${scope}-note`;
                  return (
                    <li key={scope}>
                      <label
                        className={`flex min-h-11 items-start gap-2 rounded-md border px-3 py-2 text-sm ${
                          usable ? "border-slate-300" : "border-dashed border-slate-300 text-ink-muted"
                        }`}
                      >
                        <input
                          type="checkbox"
                          value={scope}
                          disabled={!usable}
                          aria-describedby={noteId}
                          aria-invalid={Boolean(scopesError)}
                          className="mt-0.5 size-4 shrink-0"
                          {...form.register("scopes")}
                        />
                        <span className="min-w-0">
                          <span className="font-medium">{scope}</span>
                          <span id={noteId} className="block text-xs text-ink-muted">
                            {usable
                              ? SCOPE_WORDS[scope]
                              : `${SCOPE_WORDS[scope]}: not for your role (${role}), which cannot do this.`}
                          </span>
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
              {scopesError && (
                <p id="token-scopes-error" role="alert" className="mt-1 text-xs font-medium text-sell">
                  {scopesError}
                </p>
              )}
            </fieldset>
            {problem && !hasFieldErrors(problem) && <ProblemAlert problem={problem} title="Not created" />}
            <Button type="submit" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? "Creating…" : "Create token"}
            </Button>
          </form>
        </FormProvider>
      </div>
    </Card>
  );
}

/** The new token's secret, shown once, with the curl line that uses it from the page's own origin. */
function TokenSecret({ created, onDismiss }: { created: Created; onDismiss: () => void }) {
  // Drawn only after a create in the browser, never on the server: the page's own origin.
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return (
    <NewSecret
      title={`Copy the secret of “${created.token.name}” now: you will not see it again`}
      secret={created.secret}
      usage={{
        intro: "Use it from a script:",
        line: `curl -H "Authorization: Bearer ${created.secret}" ${origin}/api/orders`,
        copyLabel: "Copy the curl line",
      }}
      onDismiss={onDismiss}
    >
      It is stored only as a hash. Keep it where you keep passwords; anyone holding it acts as you, within its scopes,
      until it expires or is revoked.
    </NewSecret>
  );
}
