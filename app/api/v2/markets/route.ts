import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { relay, withRole } from "@/lib/server/http/route";

export const GET = withRole("read", async ({ runtime }) =>
  relay(await runtime.upstream.request({ method: "GET", path: "/markets" })),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
