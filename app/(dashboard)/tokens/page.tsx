import type { Metadata } from "next";
import { IntentLink } from "@/components/ui/intent-link";
import { TokenForm } from "@/components/tokens/token-form";
import { TokensTable } from "@/components/tokens/tokens-table";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "API tokens" };

/**
 * Personal API tokens (issue 28), under the person's menu, for every role: make one (its secret
 * shown once), see one's own (an admin: everyone's, with the owner) and revoke one; what a
 * token may call is on /api-docs, linked here.
 */
export default async function TokensPage() {
  const user = await requireUser();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-lg font-semibold">API tokens</h1>
        <p className="text-sm text-ink-muted">
          A token lets a script call the dashboard as you, within its scopes: what it may call is in the{" "}
          <IntentLink href="/api-docs" className="font-medium text-brand underline hover:text-brand-hover">
            API docs
          </IntentLink>
          .
        </p>
      </div>
      <div className="max-w-3xl">
        <TokenForm role={user.role} />
      </div>
      <TokensTable admin={user.role === "admin"} />
    </div>
  );
}
