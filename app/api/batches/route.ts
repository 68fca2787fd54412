import { CONFIRM_REPEAT_HEADER } from "@/lib/shared/repeats";
import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { createBatch } from "@/lib/server/batches/create";
import { recentBatches } from "@/lib/server/batches/read";
import { readBatchRequest } from "@/lib/server/batches/read-request";
import { relay, withRole } from "@/lib/server/http/route";

/** The batches, newest first, each with its counts, totals and rows. */
export const GET = withRole("read", async ({ runtime }) => Response.json({ items: await recentBatches(runtime) }));

/**
 * A batch of internal transfers, from a CSV file or JSON: every row checked before anything is
 * stored, weighed whole by the controls, then sent row by row (201) or held for one approval of
 * the whole (202); a replay of its ref_id answers the batch as it stands (200).
 */
export const POST = withRole("batches:create", async ({ request, user, runtime, ip }) =>
  relay(
    await createBatch(runtime, await readBatchRequest(runtime, request), {
      user,
      ip,
      confirmRepeatOf: request.headers.get(CONFIRM_REPEAT_HEADER),
    }),
  ),
);

const notAllowed = () => methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
