import { methodNotAllowed, queryNamesOf, queryOf } from "@/lib/server/http/toolkit";
import { relay, withRole } from "@/lib/server/http/route";
import { relayedOrdersQuerySchema } from "@/lib/server/http/route-schemas";

export const GET = withRole("read", async ({ request, runtime }) =>
  relay(
    await runtime.upstream.request({
      method: "GET",
      path: "/orders",
      // The service checks the values; the names are the schema's, as the OpenAPI document says.
      query: queryOf(new URL(request.url), ...queryNamesOf(relayedOrdersQuerySchema)),
    }),
  ),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
