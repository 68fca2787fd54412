import { methodNotAllowed, withRole } from "@/lib/server/route";
import { relay } from "@/lib/server/service/relay";
import { SCOPE, upstream } from "@/lib/server/service/upstream";
import { pathId } from "@/lib/server/service/validate";

type Params = { profile_id: string; id: string };
const orderPath = (p: Params) => `/profiles/${pathId("profile_id", p.profile_id)}/orders/${pathId("id", p.id)}`;

export const GET = withRole<Params>("read", async ({ params }) =>
  relay(await upstream().request({ method: "GET", path: orderPath(params), scopes: SCOPE.readOrder })),
);

/** Cancel: the service acknowledges; the order's status shows the outcome. */
export const DELETE = withRole<Params>("orders:cancel", async ({ params }) =>
  relay(await upstream().request({ method: "DELETE", path: orderPath(params), scopes: SCOPE.writeOrder })),
);

const notAllowed = methodNotAllowed("GET", "DELETE");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
