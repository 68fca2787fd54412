import * as z from "zod";
import { getDb } from "@/lib/server/db";
import { InvalidCursor, listEntries } from "@/lib/server/db/journal";
import { problem, ProblemError } from "@/lib/server/problem";
import { methodNotAllowed, withRole } from "@/lib/server/route";
import { parseOr400, queryOf } from "@/lib/server/service/validate";

const query = z.object({
  kind: z.enum(["order", "transfer"], { error: "kind must be order or transfer" }).optional(),
  user: z.string().optional(),
  status: z
    .enum(["pending", "succeeded", "failed"], { error: "status must be pending, succeeded or failed" })
    .optional(),
  profile_id: z.string().optional(),
  ref_ids: z.array(z.string()).max(200, "ref_ids may list at most 200 ids").optional(),
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(200, "limit may be at most 200")
    .optional(),
  cursor: z.string().optional(),
});

/** The journal: every create the desk sent, who sent it, and what the service answered. */
export const GET = withRole("read", async ({ request }) => {
  const q = parseOr400(
    query,
    queryOf(new URL(request.url), ["kind", "user", "status", "profile_id", "limit", "cursor"], ["ref_ids"]),
  );
  try {
    const page = await listEntries(await getDb(), { ...q, profileId: q.profile_id, refIds: q.ref_ids });
    return Response.json(page);
  } catch (error) {
    if (error instanceof InvalidCursor) {
      throw new ProblemError(
        problem(400, "Bad Request", `cursor: ${error.message}`, {
          errors: [{ field: "cursor", message: error.message }],
        }),
      );
    }
    throw error;
  }
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
