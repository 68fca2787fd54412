import { json, methodNotAllowed } from "@/lib/server/http/toolkit";
import { listActivity } from "@/lib/server/lists/activity-list";
import { withRole } from "@/lib/server/http/route";

/** The journal: every create and cancel the desk sent, who sent it, and what the service answered. */
export const GET = withRole("read", async ({ request, runtime }) =>
  json(await listActivity(runtime, new URL(request.url))),
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
