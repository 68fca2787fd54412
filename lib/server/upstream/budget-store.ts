import "server-only";
import type { BudgetClass } from "./errors";
import { reserveSlot, type Pace } from "./pace";

/**
 * Where the budget's schedules (one number per class) and the lockout's end live: in this
 * process (memoryBudgetStore), or in PostgreSQL, shared by every instance (postgres-budget.ts).
 */

/** A reservation refused because every call is held: until when (ms since the epoch, on the store's clock). */
export interface Lockout {
  lockedUntil: number;
}

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
