import { json, methodNotAllowed } from "@/lib/server/http/toolkit";
import { listAudit } from "@/lib/server/lists/audit-list";
import { withRole } from "@/lib/server/http/route";

/** The audit trail, newest first, filtered by event, user and time range (admin). */
export const GET = withRole("audit:read", async ({ request, runtime }) =>
  json(await listAudit(runtime, new URL(request.url))),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
