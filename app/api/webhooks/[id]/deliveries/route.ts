import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { deliveryViewsOf } from "@/lib/server/events/webhooks";

/** A webhook's deliveries, newest first: `{"items": [{id, event_type, status, attempts, …}]}` (admin). */
export const GET = withRole<{ id: string }>("webhooks:manage", async ({ params, runtime }) =>
  Response.json({ items: await deliveryViewsOf(runtime, pathId("id", params.id)) }),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
