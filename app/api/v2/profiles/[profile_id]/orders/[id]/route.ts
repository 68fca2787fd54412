import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { cancelOrder } from "@/lib/server/cancels";
import { relay, withRole } from "@/lib/server/http/route";
import { requireScope } from "@/lib/server/upstream/scopes";
import { OPERATIONS } from "@/lib/spec";

type Params = { profile_id: string; id: string };
const orderPath = (p: Params) => `/profiles/${pathId("profile_id", p.profile_id)}/orders/${pathId("id", p.id)}`;

export const GET = withRole<Params>("read", async ({ params, runtime }) =>
  relay(await runtime.upstream.request({ method: "GET", path: orderPath(params) })),
);

/** Cancel, journaled: the service acknowledges; the order's status shows the outcome. */
export const DELETE = withRole<Params>("orders:cancel", async ({ params, runtime, user, ip }) => {
  requireScope(OPERATIONS.cancelOrder.scope, runtime.config.SERVICE_SCOPES);
  return relay(await cancelOrder(runtime, pathId("profile_id", params.profile_id), pathId("id", params.id), user, ip));
});

const notAllowed = () => methodNotAllowed("GET", "DELETE");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
