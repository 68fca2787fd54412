import type { Metadata } from "next";
import { IntentLink } from "@/components/ui/intent-link";
import { ActivityTable } from "@/components/activity/activity-table";
import { AuditTable } from "@/components/lazy-tables";
import { can } from "@/lib/shared/roles";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Activity" };

/** The journal of what the desk sent; for an admin, the audit trail of every event beside it (`?view=audit`). */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<{ view?: string }> }) {
  const user = await requireUser();
  const auditor = can(user.role, "audit:read");
  const audit = auditor && (await searchParams).view === "audit";
  return (
    <div className="space-y-4">
      <h1 className="sr-only">Activity</h1>
      {auditor && (
        <nav aria-label="Activity views" className="flex gap-1">
          <ViewLink href="/activity" current={!audit}>
            Requests sent
          </ViewLink>
          <ViewLink href="/activity?view=audit" current={audit}>
            Audit trail
          </ViewLink>
        </nav>
      )}
      {audit ? <AuditTable /> : <ActivityTable />}
    </div>
  );
}

function ViewLink({ href, current, children }: { href: string; current: boolean; children: string }) {
  return (
    <IntentLink
      href={href}
      aria-current={current ? "page" : undefined}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${current ? "bg-brand-soft text-brand" : "text-ink-muted hover:bg-surface-sunken hover:text-ink"}`}
    >
      {children}
    </IntentLink>
  );
}
