import type { Metadata } from "next";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { WebhookForm } from "@/components/webhooks/webhook-form";
import { WebhooksList } from "@/components/webhooks/webhooks-list";
import { can } from "@/lib/shared/roles";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Webhooks" };

/**
 * Webhooks (issue 30), an admin's, beside Policies and Sessions: add one (its signing secret shown
 * once), see each one's state and deliveries, send a test event, retry a delivery, remove one.
 * Another role is told who sets them, as on /policies.
 */
export default async function WebhooksPage() {
  const user = await requireUser();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-lg font-semibold">Webhooks</h1>
        <p className="text-sm text-ink-muted">
          The desk&apos;s other systems (the ledger, the risk system, a chat channel) learn what happened here without
          asking: each event is posted to them, signed as the Standard Webhooks specification says.
        </p>
      </div>
      {can(user.role, "webhooks:manage") ? (
        <>
          <div className="max-w-4xl">
            <WebhookForm />
          </div>
          <WebhooksList />
        </>
      ) : (
        <ReadOnlyNote>The desk&apos;s webhooks are set by an admin.</ReadOnlyNote>
      )}
    </div>
  );
}
