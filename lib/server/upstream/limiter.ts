import "server-only";
import { UpstreamThrottled, type BudgetClass } from "./errors";

export type { BudgetClass } from "./errors";
export { UpstreamThrottled } from "./errors";

/**
 * One budget for every call the dashboard makes to the service. The service limits each
 * endpoint class per client and IP, and past a limit refuses everything from that IP for
 * minutes: so calls queue here, under the limits, instead of being sent into a refusal.
 *
 * Each class is a token bucket kept as a GCRA schedule (the "theoretical arrival time" of the
 * next call): one number per class, which a store can share between processes (the memory store
 * for one process, lib/server/upstream/postgres-budget.ts for several on one PostgreSQL).
 */

export const BUDGET_CLASSES: readonly BudgetClass[] = ["api", "transfer", "order-book", "token"];
const API_CLASSES: readonly BudgetClass[] = ["api", "transfer", "order-book"];

/** Requests per second per class. */
export type BudgetRates = Record<BudgetClass, number>;

/** The service's published limits (shared/reference README): token endpoint 1/s, transfers 20/s, order book 10/s, the rest 50/s. */
export const PUBLISHED_RATES: BudgetRates = { api: 50, transfer: 20, "order-book": 10, token: 1 };

/** What the budget reads from the configuration. */
export interface BudgetEnv {
  service: { isSandbox: boolean };
  SERVICE_API_RATE_PER_SECOND?: number;
  SERVICE_TRANSFER_RATE_PER_SECOND?: number;
  SERVICE_ORDER_BOOK_RATE_PER_SECOND?: number;
  SERVICE_TOKEN_RATE_PER_SECOND?: number;
  SANDBOX_API_RATE_PER_SECOND: number;
  SANDBOX_TRANSFER_RATE_PER_SECOND: number;
  SANDBOX_ORDER_BOOK_RATE_PER_SECOND: number;
  SANDBOX_TOKEN_RATE_PER_SECOND: number;
}

/**
 * SERVICE_*_RATE_PER_SECOND when set; else the embedded sandbox's own limits when it is the
 * service, and the published ones for any other service.
 */
export function budgetRatesFromEnv(env: BudgetEnv): BudgetRates {
  const base: BudgetRates = env.service.isSandbox
    ? {
        api: env.SANDBOX_API_RATE_PER_SECOND,
        transfer: env.SANDBOX_TRANSFER_RATE_PER_SECOND,
        "order-book": env.SANDBOX_ORDER_BOOK_RATE_PER_SECOND,
        token: env.SANDBOX_TOKEN_RATE_PER_SECOND,
      }
    : PUBLISHED_RATES;
  return {
    api: env.SERVICE_API_RATE_PER_SECOND ?? base.api,
    transfer: env.SERVICE_TRANSFER_RATE_PER_SECOND ?? base.transfer,
    "order-book": env.SERVICE_ORDER_BOOK_RATE_PER_SECOND ?? base["order-book"],
    token: env.SERVICE_TOKEN_RATE_PER_SECOND ?? base.token,
  };
}

/**
 * The share of a limit the dashboard uses, and of a one-second burst: the service's bucket must
 * never run dry because calls granted slots apart arrived closer together (a busy event loop, a
 * slow hop). What is left of the service's one-second bucket absorbs that: under 100 concurrent
 * page loads (test/integration/app/rate-limits.test.ts) calls granted a second apart arrived
 * together, so the cap on calls in flight below bounds the bunching as well.
 */
const RATE_MARGIN = 0.8;
const BURST_SHARE = 0.2;
const IN_FLIGHT_SHARE = 0.5;

/** After a 429: half the rate for a minute; without Retry-After, wait 1 s, 2 s, 4 s ... up to a minute. */
const SLOW_FOR_MS = 60_000;
const SLOW_FACTOR = 0.5;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;

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

/** Where the schedules live: in this process, or shared by every instance. */
export interface BudgetStore {
  /** Reserves the class's next slot when it comes within `maxWaitMs`: the wait, or null. */
  reserve(key: BudgetClass, pace: Pace, maxWaitMs: number): Promise<number | null>;
  /** Nothing of the class goes for `ms` from now (the service said to wait). */
  holdOff(key: BudgetClass, pace: Pace, ms: number): Promise<void>;
}

export function memoryBudgetStore(now: () => number = Date.now): BudgetStore {
  const tats = new Map<BudgetClass, number>();
  return {
    async reserve(key, pace, maxWaitMs) {
      const slot = reserveSlot(tats.get(key) ?? 0, now(), pace, maxWaitMs);
      if (!slot) return null;
      tats.set(key, slot.tat);
      return slot.waitMs;
    },
    async holdOff(key, pace, ms) {
      // The first slot after the hold is `now + ms`: the schedule moves past it by the burst.
      tats.set(key, Math.max(tats.get(key) ?? 0, now() + ms + (pace.burst - 1) * pace.intervalMs));
    },
  };
}

export interface UpstreamLimiter {
  /**
   * Waits for room among the class's calls in flight and for its slot in the schedule; throws
   * UpstreamThrottled when either comes after `deadline` (epoch ms). Returns the release, to call
   * once the answer arrived.
   */
  acquire(key: BudgetClass, deadline: number, signal?: AbortSignal): Promise<() => void>;
  /** The service answered 429: hold the class (every API class for an API 429) and slow down. */
  throttled(key: BudgetClass, retryAfter: string | null): Promise<void>;
  /** A call of the class got through: the next 429 starts its back-off from the beginning again. */
  succeeded(key: BudgetClass): void;
  /** How long the last 429 of the class said to wait (0 when none is in force). */
  heldFor(key: BudgetClass): number;
  /**
   * Until when (epoch ms) the service refuses the dashboard after a 429, for readiness; 0 when
   * never. Today the longest hold any class is under.
   */
  lockedUntil(): number;
}

export interface LimiterOptions {
  rates: BudgetRates;
  store?: BudgetStore;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Calls of a class in flight at once: half a second's worth. Pacing alone cannot stop calls
 * granted apart from arriving together when they are slowed on the way (a busy event loop); a
 * cap on those in flight bounds how many can arrive together, whatever the delay.
 */
export const inFlightCap = (ratePerSecond: number) => Math.max(1, Math.floor(ratePerSecond * IN_FLIGHT_SHARE));

export function createUpstreamLimiter(options: LimiterOptions): UpstreamLimiter {
  const now = options.now ?? Date.now;
  const store = options.store ?? memoryBudgetStore(now);
  const sleep = options.sleep ?? abortableSleep;
  const slowUntil = new Map<BudgetClass, number>();
  const heldUntil = new Map<BudgetClass, number>();
  const strikes = new Map<BudgetClass, number>();
  const gates = new Map(BUDGET_CLASSES.map((k) => [k, gate(inFlightCap(options.rates[k]))]));
  const pace = (key: BudgetClass) => paceOf(options.rates[key], now() < (slowUntil.get(key) ?? 0));

  return {
    async acquire(key, deadline, signal) {
      const release = await gates.get(key)!.enter(deadline - now(), signal, () => new UpstreamThrottled(key));
      try {
        const wait = await store.reserve(key, pace(key), Math.max(0, deadline - now()));
        if (wait === null) throw new UpstreamThrottled(key);
        if (wait > 0) await sleep(wait, signal);
        return release;
      } catch (error) {
        release();
        throw error;
      }
    },

    async throttled(key, retryAfter) {
      const strike = (strikes.get(key) ?? 0) + 1;
      strikes.set(key, strike);
      const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (strike - 1));
      const ms = retryAfterMs(retryAfter, now()) ?? backoff;
      // The service refuses the whole caller after an API 429, so every API class waits.
      for (const k of key === "token" ? [key] : API_CLASSES) {
        slowUntil.set(k, now() + ms + SLOW_FOR_MS);
        heldUntil.set(k, Math.max(heldUntil.get(k) ?? 0, now() + ms));
        await store.holdOff(k, pace(k), ms);
      }
    },

    succeeded(key) {
      strikes.delete(key);
    },

    heldFor(key) {
      return Math.max(0, (heldUntil.get(key) ?? 0) - now());
    },

    lockedUntil() {
      return Math.max(0, ...heldUntil.values());
    },
  };
}

/** A counting semaphore whose waiters give up at their deadline (with `refusal()`) or on abort. */
function gate(capacity: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return {
    enter(maxWaitMs: number, signal: AbortSignal | undefined, refusal: () => Error): Promise<() => void> {
      if (active < capacity) {
        active++;
        return Promise.resolve(once(release));
      }
      return new Promise((resolve, reject) => {
        const admit = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(once(release));
        };
        const leave = (error: unknown) => {
          const at = waiting.indexOf(admit);
          if (at >= 0) waiting.splice(at, 1);
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        };
        const onAbort = () => leave(signal!.reason);
        const timer = setTimeout(() => leave(refusal()), Math.max(0, maxWaitMs));
        signal?.addEventListener("abort", onAbort, { once: true });
        waiting.push(admit);
      });
    },
  };
}

const once = (fn: () => void) => {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      fn();
    }
  };
};

/** Retry-After as delta-seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), 3600) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - now), 3_600_000);
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A time limit whose end the limiter can read: a call waits for its slot only while the wait
 * ends before the limit, and is refused at once otherwise (nothing is sent into a timeout).
 */
const deadlines = new WeakMap<AbortSignal, number>();

export function timeLimit(ms: number): AbortSignal {
  const signal = AbortSignal.timeout(ms);
  deadlines.set(signal, Date.now() + ms);
  return signal;
}

export const deadlineOf = (signal: AbortSignal | null | undefined): number | undefined =>
  signal ? deadlines.get(signal) : undefined;
