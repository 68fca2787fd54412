import { jsonBody, methodNotAllowed } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { changeNotificationSettings, notificationSettingsOf } from "@/lib/server/events/notifications";

/** One's own email notifications: `{"approval_emails": true | false}`. */
export const GET = withRole("notifications", async ({ user, runtime }) =>
  Response.json(await notificationSettingsOf(runtime, user)),
);

/** `{"approval_emails": boolean}` → 200, the same shape; 400 naming the field. One's own only. */
export const PUT = withRole("notifications", async ({ request, user, runtime, ip }) =>
  Response.json(await changeNotificationSettings(runtime, user, await jsonBody(request), ip)),
);

const notAllowed = () => methodNotAllowed("GET", "PUT");
export { notAllowed as POST, notAllowed as PATCH, notAllowed as DELETE };
