import { methodNotAllowed, parseOr400, pathId, queryNamesOf, queryOf } from "@/lib/server/http/toolkit";
import { orderQualityQuerySchema } from "@/lib/server/http/route-schemas";
import { withRole } from "@/lib/server/http/route";
import { orderQuality } from "@/lib/server/quality/order-quality";

/** An order's execution quality (a parent order's id: the parent's, over all its children). */
export const GET = withRole<{ order_id: string }>("read", async ({ request, params, runtime }) => {
  const query = orderQualityQuerySchema;
  const { profile_id } = parseOr400(query, queryOf(new URL(request.url), ...queryNamesOf(query)));
  return Response.json(await orderQuality(runtime, pathId("order_id", params.order_id), profile_id));
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
