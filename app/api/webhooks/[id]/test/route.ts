import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { sendTestEvent } from "@/lib/server/events/webhooks";

/** A `webhook.test` event to this webhook alone: 202 `{"delivery"}` (admin). */
export const POST = withRole<{ id: string }>("webhooks:manage", async ({ params, user, runtime, ip }) =>
  Response.json({ delivery: await sendTestEvent(runtime, user, pathId("id", params.id), ip) }, { status: 202 }),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
