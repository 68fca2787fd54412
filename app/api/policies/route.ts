import { jsonBody, methodNotAllowed } from "@/lib/server/http/toolkit";
import { replacePolicy } from "@/lib/server/approvals/policy-updates";
import { currentPolicy } from "@/lib/server/db/policy";
import { withRole } from "@/lib/server/http/route";

/** The policy in force: everyone may read it (the forms say what needs approval before sending). */
export const GET = withRole("read", async ({ runtime }) => Response.json({ policy: await currentPolicy(runtime.db) }));

/**
 * An admin replaces the policy: a change that only tightens applies at once (200 `{policy}`);
 * one that loosens anything waits for an approver or another admin (202 `{approval}`, kind "policy").
 */
export const PUT = withRole("policies:edit", async ({ request, user, runtime, ip }) => {
  const answer = await replacePolicy(runtime, user, await jsonBody(request), ip);
  return answer.status === 200
    ? Response.json({ policy: answer.policy })
    : Response.json({ approval: answer.approval }, { status: 202 });
});

const notAllowed = () => methodNotAllowed("GET", "PUT");
export { notAllowed as POST, notAllowed as PATCH, notAllowed as DELETE };
