import "server-only";
import { UpstreamLocked, UpstreamThrottled, type BudgetClass } from "./errors";

export type { BudgetClass } from "./errors";
export { UpstreamLocked, UpstreamThrottled } from "./errors";

/**
 * One budget for every call the dashboard makes to the service. The service limits each
 * endpoint class per client and IP, and after a 429 refuses everything from that IP for
 * minutes: so calls queue here, under the limits, instead of being sent into a refusal, and
 * after a 429 nothing at all is sent until the lockout is over.
 *
 * Each class is a token bucket kept as a GCRA schedule (the "theoretical arrival time" of the
 * next call): one number per class, plus the lockout's end, which a store can share between
 * processes (the memory store for one process, lib/server/upstream/postgres-budget.ts for
 * several on one PostgreSQL).
 */

export const BUDGET_CLASSES: readonly BudgetClass[] = ["api", "create", "transfer", "order-book", "token"];

/** The service's rate classes, whose limits are configured (SERVICE_*_RATE_PER_SECOND). */
export type RateClass = "api" | "transfer" | "order-book" | "token";

/** Requests per second per rate class. */
export type BudgetRates = Record<RateClass, number>;

/**
 * The service's published limits (shared/reference README): token endpoint 1/s, transfers 20/s,
 * order book and recent executions 10/s, the rest 50/s.
 */
export const PUBLISHED_RATES: BudgetRates = { api: 50, transfer: 20, "order-book": 10, token: 1 };

/**
 * The share of the service's API limit kept for creating and cancelling orders. Reads (pages,
 * the live watcher) book their slots up to their time limit ahead, so a create behind them in one
 * schedule would wait seconds or be refused: creates have their own schedule and calls in flight,
 * at this share of the limit, and reads theirs at the rest, so reads never spend what creates
 * need and the two together stay under the limit. Internal transfers have their own class.
 */
export const CREATE_SHARE = 0.2;

/** Requests per second of a budget class under the configured limits. */
export function rateOf(key: BudgetClass, rates: BudgetRates): number {
  if (key === "create") return rates.api * CREATE_SHARE;
  if (key === "api") return rates.api * (1 - CREATE_SHARE);
  return rates[key];
}

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

/** The service's lockout after a 429 (shared/reference README: five minutes). */
export const PUBLISHED_PENALTY_SECONDS = 300;

/**
 * How long every call is held after a 429 that carries no Retry-After: SERVICE_RATE_PENALTY_SECONDS
 * when set; else the embedded sandbox's own penalty when it is the service, the published one otherwise.
 */
export function penaltyMsFromEnv(env: {
  service: { isSandbox: boolean };
  SERVICE_RATE_PENALTY_SECONDS?: number;
  SANDBOX_RATE_PENALTY_SECONDS: number;
}): number {
  const seconds =
    env.SERVICE_RATE_PENALTY_SECONDS ??
    (env.service.isSandbox ? Math.max(1, env.SANDBOX_RATE_PENALTY_SECONDS) : PUBLISHED_PENALTY_SECONDS);
  return seconds * 1000;
}

/**
 * The share of a limit the dashboard uses, and of a one-second burst: the service's bucket must
 * never run dry because calls granted slots apart arrived closer together (a busy event loop, a
 * slow hop). What is left of the service's one-second bucket absorbs that: under 100 concurrent
 * page loads (test/routes/rate-limits.test.ts) calls granted a second apart arrived
 * together, so the cap on calls in flight below bounds the bunching as well.
 */
const RATE_MARGIN = 0.8;
const BURST_SHARE = 0.2;
const IN_FLIGHT_SHARE = 0.5;

/** After a lockout, every class runs at half its pace for a minute: the service's count may differ from ours. */
const SLOW_FOR_MS = 60_000;
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

/** A reservation refused because every call is held: until when (ms since the epoch, on the store's clock). */
export interface Lockout {
  lockedUntil: number;
}

/** Where the schedules and the lockout live: in this process, or shared by every instance. */
export interface BudgetStore {
  /**
   * Reserves the class's next slot when it comes within `maxWaitMs`: the wait in ms; null when
   * it does not; the lockout while one holds every call (nothing is reserved then).
   */
  reserve(key: BudgetClass, pace: Pace, maxWaitMs: number): Promise<number | null | Lockout>;
  /** Holds every call for `ms` from now, or until a longer lockout already in force ends: that end. */
  lockOut(ms: number): Promise<number>;
  /** The end of the lockout in force (ms since the epoch), 0 when none. */
  lockedUntil(): Promise<number>;
}

export function memoryBudgetStore(now: () => number = Date.now): BudgetStore {
  const tats = new Map<BudgetClass, number>();
  let until = 0;
  return {
    async reserve(key, pace, maxWaitMs) {
      if (now() < until) return { lockedUntil: until };
      const slot = reserveSlot(tats.get(key) ?? 0, now(), pace, maxWaitMs);
      if (!slot) return null;
      tats.set(key, slot.tat);
      return slot.waitMs;
    },
    async lockOut(ms) {
      until = Math.max(until, now() + ms);
      return until;
    },
    async lockedUntil() {
      return now() < until ? until : 0;
    },
  };
}

export interface UpstreamLimiter {
  /**
   * Waits for room among the class's calls in flight and for its slot in the schedule; throws
   * UpstreamThrottled when either comes after `deadline` (epoch ms), and UpstreamLocked at once
   * while a lockout holds every call. Returns the release, to call once the answer arrived.
   */
  acquire(key: BudgetClass, deadline: number, signal?: AbortSignal): Promise<() => void>;
  /**
   * The service answered 429: every call (every class, the token endpoint's too) is held for
   * Retry-After, or for the penalty without one. Returns the lockout's end (ms since the epoch).
   */
  lockOut(retryAfter: string | null): Promise<number>;
  /** The end of the lockout in force (ms since the epoch, 0 when none): every instance's on a shared store. */
  lockedUntil(): Promise<number>;
}

export interface LimiterOptions {
  rates: BudgetRates;
  /** How long every call is held after a 429 without Retry-After (default: the published 300 s). */
  penaltyMs?: number;
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
  const penaltyMs = options.penaltyMs ?? PUBLISHED_PENALTY_SECONDS * 1000;
  const rate = (key: BudgetClass) => rateOf(key, options.rates);
  const gates = new Map(BUDGET_CLASSES.map((k) => [k, gate(inFlightCap(rate(k)))]));
  // What this instance knows of the lockout: refused here without asking the store.
  let lockedUntil = 0;
  let slowUntil = 0;
  const learn = (until: number) => {
    lockedUntil = Math.max(lockedUntil, until);
    slowUntil = Math.max(slowUntil, until + SLOW_FOR_MS);
  };
  const pace = (key: BudgetClass) => paceOf(rate(key), now() < slowUntil);
  const locked = (key: BudgetClass, until: number) => new UpstreamLocked(until, key === "token" ? "token" : "request");
  const refuseIfLocked = (key: BudgetClass, until = lockedUntil) => {
    if (now() < until) throw locked(key, until);
  };

  return {
    async acquire(key, deadline, signal) {
      refuseIfLocked(key);
      const release = await gates.get(key)!.enter(deadline - now(), signal, () => new UpstreamThrottled(key));
      try {
        const slot = await store.reserve(key, pace(key), Math.max(0, deadline - now()));
        if (slot === null) throw new UpstreamThrottled(key);
        if (typeof slot === "object") {
          learn(slot.lockedUntil);
          throw locked(key, slot.lockedUntil);
        }
        if (slot > 0) {
          await sleep(slot, signal);
          // A lockout that began while this call waited (here or on another instance) holds it too.
          refuseIfLocked(key, Math.max(lockedUntil, await store.lockedUntil()));
        }
        return release;
      } catch (error) {
        release();
        throw error;
      }
    },

    async lockOut(retryAfter) {
      const ms = retryAfterMs(retryAfter, now()) ?? penaltyMs;
      // Known here first, so that this instance holds its calls even if the shared store cannot be written.
      learn(now() + ms);
      try {
        learn(await store.lockOut(ms));
      } catch {
        // The store is down: this instance still holds its calls.
      }
      return lockedUntil;
    },

    async lockedUntil() {
      const shared = await store.lockedUntil().catch(() => 0);
      const until = Math.max(shared, lockedUntil);
      return now() < until ? until : 0;
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
