import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { recentBatches } from "@/lib/server/batches/read";
import { withRole } from "@/lib/server/http/route";

/** The batches, newest first, each with its counts, totals and rows. */
export const GET = withRole("read", async ({ runtime }) => Response.json({ items: await recentBatches(runtime) }));

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
