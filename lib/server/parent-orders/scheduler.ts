import "server-only";
import { leaderPasses, type LeaderPasses } from "../ops/leader-passes";
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
const holder = globalThis as { [SLOT]?: WeakMap<Runtime, LeaderPasses> };
const schedulers = (holder[SLOT] ??= new WeakMap());

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

/** One pass at a time (lib/server/ops/leader-passes.ts), woken for the earliest slice due next. */
const parentScheduler = (rt: Runtime): LeaderPasses =>
  leaderPasses(
    rt,
    "parent orders",
    async () => {
      let next: number | undefined;
      for (const id of await parentsToWork(rt.db)) {
        const due = await workParent(rt, id, (parentId) => announceParent(rt, parentId));
        if (due !== undefined) next = Math.min(next ?? due, due);
      }
      return next;
    },
    PARENT_SWEEP_MS,
  );
