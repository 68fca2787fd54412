import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { removeWebhook } from "@/lib/server/events/webhooks";

/** Removes a webhook and its deliveries: 200 `{"webhook"}` (admin); an unknown id is a 404. */
export const DELETE = withRole<{ id: string }>("webhooks:manage", async ({ params, user, runtime, ip }) =>
  Response.json({ webhook: await removeWebhook(runtime, user, pathId("id", params.id), ip) }),
);

const notAllowed = () => methodNotAllowed("DELETE");
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
