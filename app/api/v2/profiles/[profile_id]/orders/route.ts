import { methodNotAllowed, withRole } from "@/lib/server/route";
import { createOrder } from "@/lib/server/service/orders";
import { relay } from "@/lib/server/service/relay";
import { jsonBody, pathId } from "@/lib/server/service/validate";

/** Create Order: validated, journaled, sent once. */
export const POST = withRole<{ profile_id: string }>("orders:create", async ({ request, params, user }) =>
  relay(await createOrder(pathId("profile_id", params.profile_id), await jsonBody(request), user)),
);

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
