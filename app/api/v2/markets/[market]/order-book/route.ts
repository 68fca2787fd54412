import { methodNotAllowed, withRole } from "@/lib/server/route";
import { relay } from "@/lib/server/service/relay";
import { SCOPE, upstream } from "@/lib/server/service/upstream";
import { pathMarket } from "@/lib/server/service/validate";

export const GET = withRole<{ market: string }>("read", async ({ params }) =>
  relay(
    await upstream().request({
      method: "GET",
      path: `/markets/${pathMarket(params.market)}/order-book`,
      scopes: SCOPE.public,
    }),
  ),
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
