import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { relay, withRole } from "@/lib/server/http/route";

export const GET = withRole<{ id: string }>("read", async ({ params, runtime }) =>
  relay(await runtime.upstream.request({ method: "GET", path: `/transfer/transfers/${pathId("id", params.id)}` })),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
