import { IntentLink } from "./intent-link";
import type { ReactNode } from "react";

/** Where a form would be for a role that may not use it: what the role can do instead. */
export function ReadOnlyNote({ children }: { children: ReactNode }) {
  return (
    <section
      aria-label="Read only"
      data-testid="read-only-note"
      className="rounded-lg border border-slate-200 bg-surface p-4 text-sm shadow-sm"
    >
      <p>{children}</p>
      <p className="mt-2">
        <IntentLink href="/balances" className="font-medium text-brand underline underline-offset-2">
          See the balances
        </IntentLink>
      </p>
    </section>
  );
}
