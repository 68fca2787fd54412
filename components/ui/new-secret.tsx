"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { Button } from "./button";

/** A line that uses the secret (a curl call), shown under it with a Copy button of its own. */
export interface SecretUsage {
  /** What the line is, above it: "Use it from a script:". */
  intro: string;
  line: string;
  /** The Copy button's accessible name. */
  copyLabel: string;
}

/**
 * A secret just made, shown once and marked as such, with a Copy button (and, when given, a line
 * that uses it): an API token's (components/tokens) and a webhook's signing secret
 * (components/webhooks). It lives in the form's state only: dismissing it, making another or
 * leaving the page forgets it, and the server never shows it again.
 */
export function NewSecret({
  title,
  children,
  secret,
  usage,
  onDismiss,
}: {
  /** The heading: what the secret is, and that it will not be seen again. */
  title: string;
  /** Where it is kept and what it lets its holder do. */
  children: ReactNode;
  secret: string;
  usage?: SecretUsage;
  onDismiss: () => void;
}) {
  const [copied, setCopied] = useState<"secret" | "usage" | "failed" | null>(null);
  const box = useRef<HTMLElement>(null);
  useEffect(() => box.current?.focus(), []);

  async function copy(what: "secret" | "usage", text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
    } catch {
      setCopied("failed");
    }
  }

  return (
    <section
      ref={box}
      tabIndex={-1}
      aria-labelledby="new-secret-title"
      data-testid="new-secret"
      className="space-y-3 rounded-md border-2 border-warn/60 bg-warn-soft p-4 text-sm outline-none"
    >
      <div>
        <h3 id="new-secret-title" className="font-semibold text-warn">
          {title}
        </h3>
        <p className="mt-1 text-ink">{children}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid="secret-value"
          aria-label="Secret"
          className="min-w-0 flex-1 break-all rounded border border-slate-300 bg-surface px-2 py-1.5 font-mono text-xs text-ink"
        >
          {secret}
        </code>
        <Button variant="primary" onClick={() => copy("secret", secret)}>
          {copied === "secret" ? "Copied" : "Copy"}
        </Button>
      </div>
      {usage && (
        <div>
          <p className="text-ink">{usage.intro}</p>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <code
              data-testid="secret-usage"
              className="min-w-0 flex-1 break-all rounded border border-slate-300 bg-surface px-2 py-1.5 font-mono text-xs text-ink"
            >
              {usage.line}
            </code>
            <Button variant="secondary" onClick={() => copy("usage", usage.line)} aria-label={usage.copyLabel}>
              {copied === "usage" ? "Copied" : "Copy line"}
            </Button>
          </div>
        </div>
      )}
      <p aria-live="polite" className="min-h-4 text-xs text-ink-muted">
        {copied === "failed"
          ? "The browser did not allow copying: select the secret and copy it yourself."
          : copied
            ? "Copied to the clipboard."
            : ""}
      </p>
      <Button variant="secondary" onClick={onDismiss}>
        I have copied it: hide the secret
      </Button>
    </section>
  );
}
