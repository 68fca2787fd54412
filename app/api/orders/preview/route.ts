import { jsonBody, methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { previewOrder } from "@/lib/server/create/preview";
import { withRole } from "@/lib/server/http/route";

/**
 * The review's dry run of Create Order: `{"profile_id", "request": {...the order...}}` answers
 * 200 with what the desk's controls would do if it were sent now (lib/shared/create-preview.ts),
 * a 400 naming the field when the order breaks a rule. Nothing is written or sent.
 */
export const POST = withRole("orders:create", async ({ request, user, runtime }) => {
  const body = (await jsonBody(request)) as { profile_id?: unknown; request?: unknown } | null;
  const profileId = pathId("profile_id", typeof body?.profile_id === "string" ? body.profile_id : "");
  return Response.json(await previewOrder(runtime, profileId, body?.request, user));
});

const notAllowed = () => methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
