import { methodNotAllowed, withRole } from "@/lib/server/route";
import { relay } from "@/lib/server/service/relay";
import { SCOPE, upstream } from "@/lib/server/service/upstream";

export const GET = withRole("read", async () =>
  relay(await upstream().request({ method: "GET", path: "/markets", scopes: SCOPE.public })),
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
