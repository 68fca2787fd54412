import * as z from "zod";
import { methodNotAllowed, parseOr400, queryOf } from "@/lib/http";
import { listEntries, MAX_PAGE_SIZE } from "@/lib/server/db/journal";
import { withRole } from "@/lib/server/route";

const query = z.object({
  kind: z.enum(["order", "transfer"], { error: "kind must be order or transfer" }).optional(),
  user: z.string().optional(),
  status: z
    .enum(["pending", "succeeded", "failed"], { error: "status must be pending, succeeded or failed" })
    .optional(),
  profile_id: z.string().optional(),
  ref_ids: z.array(z.string()).max(MAX_PAGE_SIZE, `ref_ids may list at most ${MAX_PAGE_SIZE} ids`).optional(),
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(MAX_PAGE_SIZE, `limit may be at most ${MAX_PAGE_SIZE}`)
    .optional(),
  cursor: z.string().optional(),
});

/** The journal: every create the desk sent, who sent it, and what the service answered. */
export const GET = withRole("read", async ({ request, runtime }) => {
  const q = parseOr400(
    query,
    queryOf(new URL(request.url), ["kind", "user", "status", "profile_id", "limit", "cursor"], ["ref_ids"]),
  );
  return Response.json(await listEntries(runtime.db, { ...q, profileId: q.profile_id, refIds: q.ref_ids }));
});

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
