import "server-only";
import { log } from "../ops/log";
import { outsideRequest } from "../http/request-context";
import { parentOfId, parentsToWork } from "../db/parent-orders";
import type { Runtime } from "../runtime";
import { parentView } from "./view";
import { workParent } from "./worker";

/**
 * The runtime's parent-order scheduler, started with its background work (lib/server/ops/start.ts).
 * One instance works the parents: the leader (lib/server/live/leader.ts), as it runs the watcher
 * and sends batches. A pass works every parent that needs it (worker.ts) and sets a timer for the
 * earliest slice due next; a parent started, paused, resumed or cancelled tells it at once
 * (`kickParents`); a parent it was not told about (a restart, another instance's) is found by its
 * sweep. The schedule lives in the database: whichever instance leads next goes on from it.
 */

/** How often the scheduler looks for work it was not told about. */
export const PARENT_SWEEP_MS = 5_000;

/** On globalThis: Next loads this module more than once (instrumentation.ts starts it, a route kicks it). */
const SLOT = Symbol.for("treasury-dashboard.parent-schedulers");
const holder = globalThis as { [SLOT]?: WeakMap<Runtime, Scheduler> };
const schedulers = (holder[SLOT] ??= new WeakMap());

interface Scheduler {
  kick(): void;
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function scheduleParentsInBackground(rt: Runtime): void {
  const scheduler = parentScheduler(rt);
  schedulers.set(rt, scheduler);
  scheduler.kick();
}

/** Tells the scheduler there is work now (without one, the next sweep finds it). */
export const kickParents = (rt: Runtime): void => schedulers.get(rt)?.kick();

/** Resolves once the pass under way, if any, is over: for tests. */
export const parentsIdle = (rt: Runtime): Promise<void> => schedulers.get(rt)?.idle() ?? Promise.resolve();

/** Stops the runtime's scheduler for good (the pass under way finishes): a test that works parents itself. */
export const stopParentScheduler = (rt: Runtime): Promise<void> => schedulers.get(rt)?.stop() ?? Promise.resolve();

/** The parent as it stands to every open screen (GET /api/events, event `parent_order`). */
export async function announceParent(rt: Runtime, id: string): Promise<void> {
  const parent = await parentOfId(rt.db, id);
  if (!parent) return;
  rt.live.publish({ name: "parent_order", data: await parentView(rt, parent) });
}

function parentScheduler(rt: Runtime): Scheduler {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let cancelWake = () => {};
  // The election starts with the scheduler: an instance learns at once whether it leads.
  rt.live.start();
  const pass = async () => {
    if (!rt.live.leading) return;
    let next = Infinity;
    for (const id of await parentsToWork(rt.db)) {
      const due = await workParent(rt, id, (parentId) => announceParent(rt, parentId));
      if (due !== undefined) next = Math.min(next, due);
    }
    if (next === Infinity || stopped) return;
    cancelWake();
    cancelWake = rt.clock.after(Math.max(0, next - rt.clock.now()), kick);
  };
  const kick = (): void => {
    if (stopped || rt.lifecycle.stopping) return;
    if (running) {
      again = true;
      return;
    }
    running = rt.lifecycle
      .track(outsideRequest(pass))
      .catch((error: unknown) => log.warn({ err: error }, "parent orders: a pass stopped; the next one goes on"))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  const cancelSweep = rt.clock.every(PARENT_SWEEP_MS, kick);
  const stop = () => {
    stopped = true;
    cancelSweep();
    cancelWake();
  };
  rt.lifecycle.signal.addEventListener("abort", stop, { once: true });
  return {
    kick,
    idle: () => running ?? Promise.resolve(),
    stop: async () => {
      stop();
      await (running ?? Promise.resolve());
    },
  };
}
