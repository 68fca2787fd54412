import "server-only";
import { notificationSettingsSchema, type NotificationSettings } from "@/lib/shared/notifications";
import type { SignedInUser } from "../auth/session";
import { setApprovalEmails, wantsApprovalEmails } from "../db/webhooks";
import { parseOr400 } from "../http/toolkit";
import type { Runtime } from "../runtime";

/**
 * One's own email notifications (issue 30): whether one is emailed about requests waiting for
 * one's decision and about decisions on one's own requests (lib/server/events/mail.ts). Only
 * one's own: there is no way to read or change another person's.
 */

export async function notificationSettingsOf(rt: Runtime, user: SignedInUser): Promise<NotificationSettings> {
  return { approval_emails: await wantsApprovalEmails(rt.db, user.email) };
}

/** `PUT /api/notifications`: kept, and a change audited (`notifications.changed`). */
export async function changeNotificationSettings(
  rt: Runtime,
  user: SignedInUser,
  input: unknown,
  ip: string | null,
): Promise<NotificationSettings> {
  const asked = parseOr400(notificationSettingsSchema, input);
  const before = await wantsApprovalEmails(rt.db, user.email);
  await setApprovalEmails(rt.db, user.email, asked.approval_emails, new Date(rt.clock.now()));
  if (before !== asked.approval_emails) {
    await rt.audit.append({
      action: "notifications.changed",
      actor: user,
      ip,
      subject: user.email,
      detail: { approval_emails: asked.approval_emails },
    });
  }
  return { approval_emails: asked.approval_emails };
}
