import "server-only";
import { outsideRequest } from "../http/request-context";
import type { Runtime } from "../runtime";
import { log } from "./log";

export interface LeaderPasses {
  /** Runs a pass now, or one more after the pass under way. */
  kick(): void;
  /** Resolves once the pass under way, and any asked for meanwhile, is over: for tests. */
  idle(): Promise<void>;
  /** Runs no more passes (the one under way finishes): a test that does the work itself. */
  stop(): Promise<void>;
}

/**
 * The leader's background work (the batch sender, the parent-order scheduler, the events
 * dispatcher), one pass at a time: `pass` runs when kicked, every `everyMs` (the sweep that
 * finds what nobody kicked for: a restart, another instance's work), and when the time it
 * answers comes (epoch ms: the next slice or attempt due; undefined for none). It runs only on
 * the instance that leads (lib/server/live/leader.ts), so whoever leads next goes on from the
 * database. A kick during a pass runs one more after it; a pass that fails is logged and the
 * next goes on. It stops with the runtime's lifecycle (a shutdown, a test's reset), or with `stop`.
 */
export function leaderPasses(
  rt: Runtime,
  what: string,
  pass: () => Promise<number | undefined | void>,
  everyMs: number,
): LeaderPasses {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let cancelWake = () => {};
  /** After a pass: the next one at the time it answered, in place of any wake set before. */
  const wakeAt = (next: number | undefined | void) => {
    if (next === undefined || stopped) return;
    cancelWake();
    cancelWake = rt.clock.after(Math.max(0, next - rt.clock.now()), kick);
  };
  // The election starts with the work: an instance learns at once whether it leads.
  rt.live.start();
  const kick = (): void => {
    if (stopped || rt.lifecycle.stopping) return;
    if (running) {
      again = true;
      return;
    }
    // A route's kick only wakes the pass: it is nobody's request (nor its token's, in the audit trail).
    running = rt.lifecycle
      .track(outsideRequest(async () => wakeAt(rt.live.leading ? await pass() : undefined)))
      .catch((error: unknown) => log.warn({ err: error }, `${what}: a pass stopped; the next one goes on`))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  const cancelSweep = rt.clock.every(everyMs, kick);
  const halt = () => {
    stopped = true;
    cancelSweep();
    cancelWake();
  };
  rt.lifecycle.signal.addEventListener("abort", halt, { once: true });
  return {
    kick,
    idle: async () => {
      while (running) await running;
    },
    stop: async () => {
      halt();
      await (running ?? Promise.resolve());
    },
  };
}
