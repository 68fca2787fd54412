import "server-only";
import { BUDGET_CLASSES, PUBLISHED_PENALTY_SECONDS, rateOf, type BudgetRates } from "./budget-rates";
import { memoryBudgetStore, type BudgetStore } from "./budget-store";
import { UpstreamLocked, UpstreamThrottled, type BudgetClass } from "./errors";
import { gate } from "./gate";
import { inFlightCap, paceOf, SLOW_FOR_MS } from "./pace";
import { retryAfterMs } from "./retry-after";

/**
 * One budget for every call the dashboard makes to the service. The service limits each
 * endpoint class per client and IP, and after a 429 refuses everything from that IP for
 * minutes: so calls queue here, under the limits, instead of being sent into a refusal, and
 * after a 429 nothing at all is sent until the lockout is over. Each class is paced (pace.ts)
 * on a schedule kept in a store that several instances can share (budget-store.ts).
 */

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

/** Waits `ms`; rejects with the signal's reason once it aborts. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
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
