import { jsonBody, methodNotAllowed } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { readTargets, replaceTargets } from "@/lib/server/rebalance/targets";

/** The desk's rebalancing targets, by profile then asset: `{"targets": [{profile_id, asset, target, band}]}`. */
export const GET = withRole("rebalance:targets", async ({ runtime }) =>
  Response.json({ targets: await readTargets(runtime) }),
);

/**
 * Ops or an admin replaces every target with the body's `{"targets": [...]}` (200, the set now in
 * place); 400 naming each refused field (`targets[2].band`) or profile the service does not have.
 */
export const PUT = withRole("rebalance:targets", async ({ request, user, runtime, ip }) =>
  Response.json({ targets: await replaceTargets(runtime, user, await jsonBody(request), ip) }),
);

const notAllowed = () => methodNotAllowed("GET", "PUT");
export { notAllowed as POST, notAllowed as PATCH, notAllowed as DELETE };
