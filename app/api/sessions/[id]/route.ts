import { methodNotAllowed, pathId } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { problem, ProblemError } from "@/lib/spec";

/** An admin ends a session: its cookie answers 401 from then on. Audited. */
export const DELETE = withRole<{ id: string }>("sessions:manage", async ({ params, runtime, user, ip }) => {
  const id = pathId("id", params.id);
  const ended = await runtime.sessions.revoke(id);
  if (!ended) throw new ProblemError(problem(404, "Not Found", `No live session ${id}.`));
  await runtime.audit.append({
    action: "session.revoked",
    actor: { email: user.email, role: user.role },
    ip,
    subject: ended.user_email,
    detail: { session_id: id },
  });
  return Response.json({ session: { id, user_email: ended.user_email, revoked: true } });
});

export const GET = () => methodNotAllowed("DELETE");
