"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { ApiTokenView } from "@/lib/shared/api-tokens";

/** What `POST /api/tokens` answers: the token and its secret, shown this once. */
export interface Created {
  token: ApiTokenView;
  secret: string;
}

/**
 * The secret of the token just made, shown once, marked as such, with a Copy button and the curl
 * line that uses it. It lives in the form's state only: dismissing it, making another token or
 * leaving the page forgets it, and the server never shows it again.
 */
export function NewSecret({ created, onDismiss }: { created: Created; onDismiss: () => void }) {
  const [copied, setCopied] = useState<"secret" | "curl" | "failed" | null>(null);
  const box = useRef<HTMLElement>(null);
  // Drawn only after a create in the browser, never on the server: the page's own origin.
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  useEffect(() => box.current?.focus(), []);
  const curl = `curl -H "Authorization: Bearer ${created.secret}" ${origin}/api/orders`;

  async function copy(what: "secret" | "curl", text: string) {
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
          Copy the secret of “{created.token.name}” now: you will not see it again
        </h3>
        <p className="mt-1 text-ink">
          It is stored only as a hash. Keep it where you keep passwords; anyone holding it acts as you, within its
          scopes, until it expires or is revoked.
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid="token-secret"
          aria-label="Secret"
          className="min-w-0 flex-1 break-all rounded border border-slate-300 bg-surface px-2 py-1.5 font-mono text-xs text-ink"
        >
          {created.secret}
        </code>
        <Button variant="primary" onClick={() => copy("secret", created.secret)}>
          {copied === "secret" ? "Copied" : "Copy"}
        </Button>
      </div>
      <div>
        <p className="text-ink">Use it from a script:</p>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <code
            data-testid="token-curl"
            className="min-w-0 flex-1 break-all rounded border border-slate-300 bg-surface px-2 py-1.5 font-mono text-xs text-ink"
          >
            {curl}
          </code>
          <Button variant="secondary" onClick={() => copy("curl", curl)} aria-label="Copy the curl line">
            {copied === "curl" ? "Copied" : "Copy line"}
          </Button>
        </div>
      </div>
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
