import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";

/** Walks the audit chain: `{ok: true, entries}`, or `ok: false` and the first broken entry. */
export const GET = withRole("audit:verify", async ({ runtime }) => Response.json(await runtime.audit.verify()));

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
