import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { rebalancePlan } from "@/lib/server/rebalance/plan";

/**
 * The transfers that bring each profile with a target within its band from the others' excess,
 * at the balances the service reports now: `{"transfers": [...], "short": [...]}`. Sends nothing.
 */
export const GET = withRole("rebalance:targets", async ({ runtime }) => Response.json(await rebalancePlan(runtime)));

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
