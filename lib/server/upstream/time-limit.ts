import "server-only";

/**
 * A time limit whose end the limiter can read: a call waits for its slot only while the wait
 * ends before the limit, and is refused at once otherwise (nothing is sent into a timeout).
 * The end is read on the limiter's clock (`now`), the signal fires on the machine's.
 */
const deadlines = new WeakMap<AbortSignal, number>();

export function timeLimit(ms: number, now: () => number = Date.now): AbortSignal {
  const signal = AbortSignal.timeout(ms);
  deadlines.set(signal, now() + ms);
  return signal;
}

export const deadlineOf = (signal: AbortSignal | null | undefined): number | undefined =>
  signal ? deadlines.get(signal) : undefined;
