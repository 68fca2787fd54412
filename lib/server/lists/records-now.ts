import "server-only";
import { mayStillChange, recordStatusOf } from "@/lib/shared/activity-outcome";
import type { JournalEntry } from "@/lib/shared/journal-entry";
import { orderBadgeStatus } from "@/lib/shared/order-rows";
import type { Order, Transfer } from "@/lib/spec";
import { log } from "../ops/log";
import type { UpstreamClient } from "../upstream/client";
import { SERVICE_MAX_LIMIT } from "./page-walk";

/**
 * The statuses the service gives now to the records the journal's creates made: a post-only
 * order answered SUBMITTED may be REJECTED a moment later, a transfer answered PENDING may
 * FAIL. Only entries whose answered record may still change are asked about, by ref_id, 100 to
 * a call (List Transfers' limit of ref_ids). A service that cannot say leaves them as answered:
 * the journal is the dashboard's own and is listed whatever the service does.
 */

/** List Transfers takes at most 100 ref_ids; List Orders names no limit, and gets the same. */
const REF_IDS_PER_CALL = 100;

const PATHS = { order: "/orders", transfer: "/transfer/transfers" } as const;
type Kind = keyof typeof PATHS;

/** Entry id → the status its record has at the service now (an expired GTT order's "EXPIRED" included). */
export async function recordStatusesNow(
  upstream: UpstreamClient,
  entries: readonly JournalEntry[],
): Promise<Map<string, string>> {
  const asked = entries.filter(
    (e): e is JournalEntry & { kind: Kind; result_id: string } =>
      e.status === "succeeded" &&
      e.kind !== "cancel" &&
      Boolean(e.result_id) &&
      mayStillChange(e.kind, recordStatusOf(e)),
  );
  const found = await Promise.all(
    (["order", "transfer"] as const).flatMap((kind) =>
      chunks(asked.filter((e) => e.kind === kind).map((e) => e.ref_id)).map((refIds) =>
        recordsOf(upstream, kind, refIds),
      ),
    ),
  );
  const statusById = new Map(found.flat().map((r) => [r.id, r.status]));
  const now = new Map<string, string>();
  for (const e of asked) {
    const status = statusById.get(e.result_id);
    if (status) now.set(e.id, status);
  }
  return now;
}

const chunks = (ids: string[]): string[][] =>
  Array.from({ length: Math.ceil(ids.length / REF_IDS_PER_CALL) }, (_, i) =>
    ids.slice(i * REF_IDS_PER_CALL, (i + 1) * REF_IDS_PER_CALL),
  );

/** The records of these ref_ids, as ids and statuses; none when the service does not answer them. */
async function recordsOf(
  upstream: UpstreamClient,
  kind: Kind,
  refIds: string[],
): Promise<{ id: string; status: string }[]> {
  try {
    // Both legs of a transfer carry its ref_id: 200 records at most, well inside one page.
    const res = await upstream.request({
      method: "GET",
      path: PATHS[kind],
      query: { ref_ids: refIds, limit: SERVICE_MAX_LIMIT },
    });
    const items = res.status === 200 ? (res.body as { items?: unknown }).items : undefined;
    if (!Array.isArray(items)) throw new Error(`the service answered ${res.status}`);
    return kind === "order"
      ? (items as Order[]).map((o) => ({ id: o.id, status: orderBadgeStatus(o) }))
      : (items as Transfer[]).map((t) => ({ id: t.id, status: t.status }));
  } catch (error) {
    log.warn(
      { err: error, path: PATHS[kind] },
      "activity: the records' statuses now could not be read; listed as answered",
    );
    return [];
  }
}
