import "server-only";

/**
 * How each budget class is paced: a token bucket kept as a GCRA schedule (the "theoretical
 * arrival time" of the next call), one number per class, and a cap on its calls in flight.
 *
 * The dashboard uses a share of each limit, and of a one-second burst: the service's bucket must
 * never run dry because calls granted slots apart arrived closer together (a busy event loop, a
 * slow hop). What is left of the service's one-second bucket absorbs that: under 100 concurrent
 * page loads (test/routes/rate-limits.test.ts) calls granted a second apart arrived
 * together, so the cap on calls in flight below bounds the bunching as well.
 */
const RATE_MARGIN = 0.8;
const BURST_SHARE = 0.2;
const IN_FLIGHT_SHARE = 0.5;

/** After a lockout, every class runs at half its pace for a minute: the service's count may differ from ours. */
export const SLOW_FOR_MS = 60_000;
const SLOW_FACTOR = 0.5;

/** How one class is paced: a slot every `intervalMs`, up to `burst` at once after a quiet spell. */
export interface Pace {
  intervalMs: number;
  burst: number;
}

export function paceOf(ratePerSecond: number, slow = false): Pace {
  const rate = ratePerSecond * RATE_MARGIN * (slow ? SLOW_FACTOR : 1);
  return { intervalMs: 1000 / rate, burst: Math.max(1, Math.floor(ratePerSecond * BURST_SHARE)) };
}

/**
 * GCRA: given the class's schedule `tat` and the time, the wait before this call may go and the
 * new schedule; null when the wait would exceed `maxWaitMs` (the schedule is then left alone).
 */
export function reserveSlot(
  tat: number,
  now: number,
  pace: Pace,
  maxWaitMs: number,
): { waitMs: number; tat: number } | null {
  const start = Math.max(tat, now);
  const waitMs = Math.max(0, start - (pace.burst - 1) * pace.intervalMs - now);
  if (waitMs > maxWaitMs) return null;
  return { waitMs, tat: start + pace.intervalMs };
}

/**
 * Calls of a class in flight at once: half a second's worth. Pacing alone cannot stop calls
 * granted apart from arriving together when they are slowed on the way (a busy event loop); a
 * cap on those in flight bounds how many can arrive together, whatever the delay.
 */
export const inFlightCap = (ratePerSecond: number) => Math.max(1, Math.floor(ratePerSecond * IN_FLIGHT_SHARE));
