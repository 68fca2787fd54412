import "server-only";
import { finalEventOf, subscribes, type EventType } from "@/lib/shared/webhooks";
import { recordEvent } from "../db/outbox";
import { enabledWebhooks } from "../db/webhooks";
import type { Runtime } from "../runtime";

/**
 * The record follower (issue 30): an order or transfer the dashboard created changes at the
 * service later (an order fills or is cancelled, a transfer settles), and nothing of ours
 * changes with it. While a webhook wants to hear of it, the leader reads the service for the
 * created records still open, a few at a time, the longest unread first, and records the final
 * status with its event in one transaction, guarded by the status it last saw: whoever reads it
 * twice, it is reported once. With no such webhook, the service is not asked for anything more.
 */

/** The events only the follower can report. */
const FOLLOWED: readonly EventType[] = ["order.filled", "order.cancelled", "transfer.completed", "transfer.failed"];
/** How often it reads, and how many records a time: 2.5 reads a second at most, of the service's budget. */
export const FOLLOW_EVERY_MS = 2_000;
const FOLLOWED_PER_LOOK = 5;
/** A record still open after this long is no longer read. */
const FOLLOW_FOR_MS = 7 * 24 * 3_600_000;
const OPEN_ORDER = ["PENDING_SUBMISSION", "SUBMITTED", "OPEN"];
const OPEN_TRANSFER = ["PENDING"];

const lastLook = new WeakMap<Runtime, number>();

export async function followRecords(rt: Runtime): Promise<void> {
  const now = rt.clock.now();
  if (now - (lastLook.get(rt) ?? -Infinity) < FOLLOW_EVERY_MS) return;
  lastLook.set(rt, now);
  const hooks = await enabledWebhooks(rt.db);
  const wanted = FOLLOWED.some((type) => hooks.some((w) => subscribes(JSON.parse(w.events_json) as string[], type)));
  if (!wanted) return;
  const open = await rt.db
    .selectFrom("journal")
    .select(["id", "kind", "ref_id", "profile_id", "result_id", "followed_status"])
    .where("status", "=", "succeeded")
    .where((eb) =>
      eb.or([
        eb.and([eb("kind", "=", "order"), eb("followed_status", "in", OPEN_ORDER)]),
        eb.and([eb("kind", "=", "transfer"), eb("followed_status", "in", OPEN_TRANSFER)]),
      ]),
    )
    .where("created_at", ">=", new Date(now - FOLLOW_FOR_MS).toISOString())
    .orderBy("followed_at")
    .limit(FOLLOWED_PER_LOOK)
    .execute();
  for (const entry of open) await followOne(rt, entry);
}

interface Followed {
  id: string;
  kind: string;
  ref_id: string;
  profile_id: string;
  result_id: string | null;
  followed_status: string | null;
}

async function followOne(rt: Runtime, entry: Followed): Promise<void> {
  if (!entry.result_id) return;
  const path =
    entry.kind === "order"
      ? `/profiles/${entry.profile_id}/orders/${entry.result_id}`
      : `/transfer/transfers/${entry.result_id}`;
  const res = await rt.upstream.request({ method: "GET", path }).catch(() => undefined);
  const at = new Date(rt.clock.now());
  const record = res?.status === 200 ? (res.body as { status?: unknown }) : undefined;
  const status = typeof record?.status === "string" ? record.status : entry.followed_status;
  await rt.db.transaction().execute(async (tx) => {
    const moved = await tx
      .updateTable("journal")
      .set({ followed_status: status, followed_at: at.toISOString() })
      .where("id", "=", entry.id)
      .where("followed_status", "=", entry.followed_status)
      .executeTakeFirst();
    const type = status === entry.followed_status || status === null ? undefined : finalEventOf(entry.kind, status);
    if (Number(moved.numUpdatedRows) === 1 && type) {
      await recordEvent(tx, { type, at, data: { [entry.kind]: record, ref_id: entry.ref_id } });
    }
  });
}
