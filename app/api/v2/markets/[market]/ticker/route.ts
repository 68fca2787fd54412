import { methodNotAllowed, pathMarket } from "@/lib/server/http/toolkit";
import { relay, withRole } from "@/lib/server/http/route";

export const GET = withRole<{ market: string }>("read", async ({ params, runtime }) =>
  relay(await runtime.upstream.request({ method: "GET", path: `/markets/${pathMarket(params.market)}/ticker` })),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
