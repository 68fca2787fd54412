import type { Metadata } from "next";
import { NotificationSettings } from "@/components/notifications/notification-settings";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Notifications" };

/**
 * The person's own email notifications (issue 30), under their menu beside API tokens, for every
 * role: whether they are emailed when a request waits for their approval and when theirs are decided.
 */
export default async function NotificationsPage() {
  await requireUser();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-lg font-semibold">Notifications</h1>
        <p className="text-sm text-ink-muted">What the dashboard emails you. This setting is yours alone.</p>
      </div>
      <div className="max-w-3xl">
        <NotificationSettings />
      </div>
    </div>
  );
}
