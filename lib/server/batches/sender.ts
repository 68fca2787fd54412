import "server-only";
import type { BatchEvent } from "@/lib/shared/batch";
import { batchOfId } from "../db/batches";
import type { Runtime } from "../runtime";
import { batchSender } from "./send-rows";
import { batchView } from "./view";

/**
 * The runtime's batch sender (send-rows.ts), started with the runtime's background work
 * (lib/server/ops/start.ts): a batch created or approved tells it at once (`kickBatches`); a
 * batch it was not told about (a restart, another instance's) is found by its sweep.
 */

/** On globalThis: Next loads this module more than once (instrumentation.ts starts it, a route kicks it). */
const SLOT = Symbol.for("treasury-dashboard.batch-senders");
const holder = globalThis as { [SLOT]?: WeakMap<Runtime, ReturnType<typeof batchSender>> };
const senders = (holder[SLOT] ??= new WeakMap());

export function sendBatchesInBackground(rt: Runtime): void {
  const sender = batchSender(rt, (batch) => announceBatch(rt, batch.id));
  senders.set(rt, sender);
  sender.kick();
}

/** Tells the sender there are rows to send now (without one, the next sweep finds them). */
export const kickBatches = (rt: Runtime): void => senders.get(rt)?.kick();

/** Stops the runtime's sender for good (the pass under way finishes): a test that sends rows itself. */
export const stopBatchSender = (rt: Runtime): Promise<void> => senders.get(rt)?.stop() ?? Promise.resolve();

/** Resolves once the sender's pass under way, if any, is over: for tests. */
export const batchesIdle = (rt: Runtime): Promise<void> => senders.get(rt)?.idle() ?? Promise.resolve();

/** The batch as it stands, without its rows, to every open screen (GET /api/events, event `batch`). */
export async function announceBatch(rt: Runtime, id: string): Promise<void> {
  const batch = await batchOfId(rt.db, id);
  if (!batch) return;
  const { rows: _rows, ...summary } = await batchView(rt.db, batch);
  rt.live.publish({ name: "batch", data: summary satisfies BatchEvent });
}
