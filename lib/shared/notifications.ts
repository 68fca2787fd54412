import * as z from "zod/mini";

/**
 * One's own email notifications (issue 30), as `GET /api/notifications` answers them and
 * `PUT /api/notifications` takes them: one schema for the page's switch and the route handler.
 */

export interface NotificationSettings {
  /** Emails about requests waiting for one's decision, and about decisions on one's own requests. */
  approval_emails: boolean;
}

export const notificationSettingsSchema = z.strictObject({
  approval_emails: z.boolean({
    error: (issue) =>
      issue.input === undefined
        ? "approval_emails is required: true or false"
        : "approval_emails must be true or false",
  }),
});
