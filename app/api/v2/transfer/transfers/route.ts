import { methodNotAllowed, queryNamesOf, queryOf } from "@/lib/server/http/toolkit";
import { relay, withRole } from "@/lib/server/http/route";
import { relayedTransfersQuerySchema } from "@/lib/server/http/route-schemas";
import { checkTransferCombination } from "@/lib/server/lists/transfers-list";

export const GET = withRole("read", async ({ request, runtime }) => {
  // The service checks the values; the names are the schema's, as the OpenAPI document says.
  const query = queryOf(new URL(request.url), ...queryNamesOf(relayedTransfersQuerySchema));
  // A combination the service refuses is refused here, in its words, and never sent.
  checkTransferCombination(query);
  return relay(await runtime.upstream.request({ method: "GET", path: "/transfer/transfers", query }));
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
