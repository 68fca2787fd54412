import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { revokeApiTokenOf } from "@/lib/server/auth/api-tokens";

/** Revokes one's own token (an admin: anyone's): 200 `{"token"}` with its `revoked_at`; another's is a 404. */
export const DELETE = withRole<{ id: string }>("tokens", async ({ params, user, runtime, ip }) =>
  Response.json({ token: await revokeApiTokenOf(runtime, user, pathId("id", params.id), ip) }),
);

const notAllowed = () => methodNotAllowed("DELETE");
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
