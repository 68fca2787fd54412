import { methodNotAllowed, withRole } from "@/lib/server/route";
import { relay } from "@/lib/server/service/relay";
import { SCOPE, upstream } from "@/lib/server/service/upstream";
import { pathId } from "@/lib/server/service/validate";

export const GET = withRole<{ id: string }>("read", async ({ params }) =>
  relay(
    await upstream().request({
      method: "GET",
      path: `/transfer/transfers/${pathId("id", params.id)}`,
      scopes: SCOPE.readTransfer,
    }),
  ),
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
