import "server-only";

/**
 * The runtime's time. Whatever waits on time (the idle timeout, lockouts and penalties, token
 * lifetimes, approval expiry, the journal's sweep, the sandbox's GTT expiry and settling) reads
 * `now()` and schedules with `after`/`every` here, never with Date.now or setTimeout directly,
 * so a test can move time instead of waiting for it (`movableClock`).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once `ms` have passed on this clock; returns its cancel. Never keeps the process alive. */
  after(ms: number, fn: () => void): () => void;
  /** Runs `fn` every `ms` on this clock; returns its cancel. Never keeps the process alive. */
  every(ms: number, fn: () => void): () => void;
  /** Resolves once `ms` have passed on this clock: a request's own wait (a backoff before a retry). */
  sleep(ms: number): Promise<void>;
}

/** The machine's clock: what production runs on. */
export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref?.();
    return () => clearInterval(timer);
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A clock a test moves forward: real time plus what `advance` added. */
export interface MovableClock extends Clock {
  /** Moves time forward by `ms`: what fell due runs now, in the order it fell due. */
  advance(ms: number): void;
  /** How far this clock is ahead of the machine's. */
  readonly offset: number;
}

interface Pending {
  due: number;
  fn: () => void;
  cancel: () => void;
}

/**
 * Real time goes on as usual (a timer also fires when its time comes unmoved); `advance` adds to
 * the offset and runs every timer that is then due. An `every` that fell due several times in
 * one move runs once, as a machine waking from sleep would.
 *
 * With `skipSleeps`, a request's own wait (`sleep`) is not waited for: on the next turn of the
 * event loop the clock moves to its end (unless it is there already), as if the time had passed
 * with nothing else happening. Route handlers called in a test's process use it: a create's
 * backoff before its retry costs nothing, and is the same time on the clock.
 */
export function movableClock({ skipSleeps = false }: { skipSleeps?: boolean } = {}): MovableClock {
  let offset = 0;
  const pending = new Set<Pending>();
  const now = () => Date.now() + offset;

  const fire = (entry: Pending) => {
    if (!pending.delete(entry)) return;
    entry.cancel();
    entry.fn();
  };

  const after = (ms: number, fn: () => void) => {
    const entry: Pending = { due: now() + ms, fn, cancel: () => {} };
    const timer = setTimeout(() => fire(entry), ms);
    timer.unref?.();
    entry.cancel = () => clearTimeout(timer);
    pending.add(entry);
    return () => {
      pending.delete(entry);
      entry.cancel();
    };
  };

  const advance = (ms: number) => {
    if (!(ms >= 0)) throw new RangeError("A clock only moves forward");
    // Whole milliseconds, as Date.now's: a fractional sleep (a batch's row pace) must not make the time fractional.
    offset += Math.ceil(ms);
    const due = [...pending].filter((p) => p.due <= now()).sort((a, b) => a.due - b.due);
    for (const entry of due) fire(entry);
  };

  return {
    now,
    after,
    sleep(ms) {
      if (!skipSleeps) return new Promise((resolve) => after(ms, resolve));
      const end = now() + ms;
      return new Promise((resolve) =>
        setImmediate(() => {
          // One reading: real time may pass between two, leaving a negative (or fractional) rest.
          const rest = end - now();
          if (rest > 0) advance(rest);
          resolve();
        }),
      );
    },
    every(ms, fn) {
      let cancel = () => {};
      const arm = () => {
        cancel = after(ms, () => {
          arm();
          fn();
        });
      };
      arm();
      return () => cancel();
    },
    advance,
    get offset() {
      return offset;
    },
  };
}
