"use client";

import { signIn } from "next-auth/react";
import { useRef, useState, type FormEvent } from "react";

interface Props {
  demoUsers: { email: string; role: string }[];
  oidc: boolean;
  callbackUrl: string;
  initialError?: string;
  /** Said once the person has signed out ("You are signed out."), so the click is seen to have worked. */
  notice?: string;
}

const ERRORS: Record<string, string> = {
  CredentialsSignin: "That email and password do not match a staff account.",
  AccessDenied: "Your account has no dashboard role. Ask an administrator for access.",
  SessionRequired: "Sign in to continue.",
  EmailNotVerified:
    "Single sign-on did not give a verified email address for your account. Ask your identity administrator to verify it, then sign in again.",
  IdentityTaken:
    "Your email address already belongs to another single sign-on account here. Ask an administrator to sort out which account is yours.",
};

/** Email and password for the demo users; single sign-on when an OIDC provider is configured. */
export function SignInForm({ demoUsers, oidc, callbackUrl, initialError, notice }: Props) {
  const password = useRef<HTMLInputElement>(null);
  const [error, setError] = useState(initialError ? (ERRORS[initialError] ?? "Sign-in failed. Try again.") : "");
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError("");
    const result = await signIn("credentials", {
      email: String(form.get("email")),
      password: String(form.get("password")),
      redirect: false,
      callbackUrl,
    });
    setBusy(false);
    if (result?.ok && result.url) window.location.assign(result.url);
    else {
      setError(ERRORS[result?.error ?? ""] ?? result?.error ?? "Sign-in failed. Try again.");
      // Back to the password, selected, to type again at once (not to the page's body).
      password.current?.focus();
      password.current?.select();
    }
  }

  return (
    <div className="space-y-6">
      {/* Outside the password form: with only single sign-on there is no form, and still a reason to show. */}
      {notice && !error && (
        <p role="status" data-testid="signin-notice" className="rounded-md bg-buy-soft px-3 py-2 text-sm text-buy">
          {notice}
        </p>
      )}
      {error && (
        <p id="signin-error" role="alert" className="rounded-md bg-sell-soft px-3 py-2 text-sm text-sell">
          {error}
        </p>
      )}
      {demoUsers.length > 0 && (
        <form
          method="post"
          onSubmit={submit}
          className="space-y-4"
          aria-describedby={error ? "signin-error" : undefined}
        >
          <label className="block">
            <span className="text-sm font-medium">Email</span>
            <input
              name="email"
              type="email"
              required
              autoComplete="username"
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 shadow-sm"
            />
          </label>
          <label className="block">
            <span className="text-sm font-medium">Password</span>
            <input
              ref={password}
              name="password"
              type="password"
              required
              autoComplete="current-password"
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 shadow-sm"
            />
          </label>
          <button
            type="submit"
            disabled={busy}
            className="w-full rounded-md bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-hover disabled:opacity-60"
          >
            {busy ? "Signing in…" : "Sign in"}
          </button>
        </form>
      )}
      {oidc && (
        <button
          type="button"
          onClick={() => signIn("oidc", { callbackUrl })}
          className="w-full rounded-md border border-slate-300 bg-surface px-4 py-2 font-semibold hover:bg-surface-raised"
        >
          Sign in with single sign-on
        </button>
      )}
      {demoUsers.length > 0 && (
        <details className="rounded-md bg-surface-raised p-3 text-sm text-ink-muted">
          <summary className="cursor-pointer font-medium text-ink">Demo users</summary>
          <ul className="mt-2 space-y-1">
            {demoUsers.map((u) => (
              <li key={u.email}>
                <code className="font-mono">{u.email}</code> — {u.role}
              </li>
            ))}
          </ul>
          <p className="mt-2">The password is the value of DEMO_PASSWORD (by default “demo”).</p>
        </details>
      )}
    </div>
  );
}
