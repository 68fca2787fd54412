import "server-only";
import { expireInBackground } from "../approvals/decisions";
import { sendBatchesInBackground } from "../batches/sender";
import { scheduleParentsInBackground } from "../parent-orders/scheduler";
import { dispatchEventsInBackground } from "../events/dispatcher";
import type { RequestWatch } from "../http/incoming";
import { reconcileInBackground } from "../reconcile";
import { runtime, type Runtime } from "../runtime";

/**
 * Builds the process's runtime (or takes the one being built) and starts what it does on its
 * own: requests of the server (`requests`; none when route handlers are called in a test's
 * process) are counted in its lifecycle (a shutdown waits for them), journal entries a crash
 * left pending are reconciled with the service, approval requests past their time expire, and
 * the rows of batches being sent go (lib/server/batches/sender.ts), and parent orders are worked
 * slice by slice (lib/server/parent-orders/scheduler.ts), and events go out to webhooks and
 * by email (lib/server/events/dispatcher.ts).
 * That work stops with the runtime's lifecycle (a shutdown, or a test's reset).
 */
export async function startRuntime(requests?: RequestWatch): Promise<Runtime> {
  const rt = await runtime();
  requests?.attach(rt.lifecycle);
  reconcileInBackground(rt);
  expireInBackground(rt);
  sendBatchesInBackground(rt);
  scheduleParentsInBackground(rt);
  dispatchEventsInBackground(rt);
  return rt;
}
