import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { retryDelivery } from "@/lib/server/events/webhooks";

/** One more attempt now, with the same webhook-id: 202 `{"delivery"}` (admin). */
export const POST = withRole<{ id: string; delivery_id: string }>(
  "webhooks:manage",
  async ({ params, user, runtime, ip }) =>
    Response.json(
      {
        delivery: await retryDelivery(
          runtime,
          user,
          pathId("id", params.id),
          pathId("delivery_id", params.delivery_id),
          ip,
        ),
      },
      { status: 202 },
    ),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
