/**
 * Whether the process is stopping, and the work it must let finish first: requests being
 * answered and route handlers running (a create until its journal entry is complete). One per
 * runtime; the shutdown (lib/server/ops/shutdown.ts) begins it and waits for it to drain.
 */
export interface Lifecycle {
  /** True from the moment a shutdown begins: readiness answers 503, new requests are refused. */
  readonly stopping: boolean;
  /** Aborted when a shutdown begins (its reason is the signal's name): open event streams end on it. */
  readonly signal: AbortSignal;
  /** Work in flight now. */
  readonly inFlight: number;
  begin(reason: string): void;
  /** One more piece of work in flight; call what it returns when that work is done (once). */
  enter(): () => void;
  /** `work`, counted in flight until it settles. */
  track<T>(work: Promise<T>): Promise<T>;
  /** True once nothing is in flight, false if `timeoutMs` pass first. */
  drained(timeoutMs: number): Promise<boolean>;
}

export function createLifecycle(): Lifecycle {
  const controller = new AbortController();
  let inFlight = 0;
  const waiting = new Set<() => void>();

  const enter = () => {
    inFlight += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      inFlight -= 1;
      if (inFlight === 0) for (const wake of waiting) wake();
    };
  };

  return {
    get stopping() {
      return controller.signal.aborted;
    },
    signal: controller.signal,
    get inFlight() {
      return inFlight;
    },
    begin(reason) {
      if (!controller.signal.aborted) controller.abort(reason);
    },
    enter,
    track(work) {
      const leave = enter();
      return work.finally(leave);
    },
    drained(timeoutMs) {
      if (inFlight === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          waiting.delete(wake);
          resolve(ok);
        };
        const wake = () => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        waiting.add(wake);
      });
    },
  };
}
