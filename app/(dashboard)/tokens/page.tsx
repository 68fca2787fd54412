import type { Metadata } from "next";
import { TokenForm } from "@/components/tokens/token-form";
import { TokensTable } from "@/components/tokens/tokens-table";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "API tokens" };

/**
 * Personal API tokens (issue 28), under the person's menu, for every role: make one (its secret
 * shown once), see one's own (an admin: everyone's, with the owner) and revoke one.
 */
export default async function TokensPage() {
  const user = await requireUser();
  return (
    <div className="space-y-6">
      <h1 className="text-lg font-semibold">API tokens</h1>
      <div className="max-w-3xl">
        <TokenForm role={user.role} />
      </div>
      <TokensTable admin={user.role === "admin"} />
    </div>
  );
}
