import { jsonBody, methodNotAllowed } from "@/lib/http";
import { currentPolicy, replacePolicy } from "@/lib/server/policies";
import { withRole } from "@/lib/server/route";

/** The policy in force: everyone may read it (the forms say what needs approval before sending). */
export const GET = withRole("read", async ({ runtime }) => Response.json({ policy: await currentPolicy(runtime.db) }));

/** An admin replaces the policy; the change is audited with its before and after. */
export const PUT = withRole("policies:edit", async ({ request, user, runtime, ip }) =>
  Response.json({ policy: await replacePolicy(runtime, user, await jsonBody(request), ip) }),
);

const notAllowed = () => methodNotAllowed("GET", "PUT");
export { notAllowed as POST, notAllowed as PATCH, notAllowed as DELETE };
