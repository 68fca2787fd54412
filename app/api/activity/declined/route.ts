import { json, jsonBody, methodNotAllowed } from "@/lib/http";
import { declineDuplicate } from "@/lib/server/duplicates";
import { withRole } from "@/lib/server/route";

/**
 * "Don't send": the person declined a create that repeated a recent one. Nothing is sent; the
 * journal keeps a 'declined' entry. The role to send that kind of create is checked inside.
 */
export const POST = withRole("read", async ({ request, user, runtime }) =>
  json(await declineDuplicate(runtime, user, await jsonBody(request))),
);

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
