import "server-only";

const WINDOW_MS = 15 * 60_000;
/** Per account: a person mistyping. */
export const MAX_FAILURES_PER_ACCOUNT = 5;
/** Per address: many accounts guessed from one place (an office behind one NAT stays well under it). */
export const MAX_FAILURES_PER_IP = 20;
/** Keys remembered at most: one spraying caller cannot grow the map without bound. */
const MAX_KEYS = 10_000;

/** An attempt let through: it counts as a failure unless released. */
export interface Reserved {
  ok: true;
  /** The attempt succeeded: it no longer counts against the key. */
  release(): void;
}

/** An attempt refused: the key is locked for `waitMs`; `newLock` only for the first refusal of this lock. */
export interface Locked {
  ok: false;
  waitMs: number;
  newLock: boolean;
}

/**
 * Sign-in attempts per key (an email, or an address): after `maxFailures` within 15 minutes
 * the key is locked until the oldest of them is 15 minutes old. An attempt is counted when it
 * is let through, before its password is checked, and forgiven only once it succeeded: so
 * however many guesses arrive at once, at most `maxFailures` reach the hash. Kept in memory:
 * a restart clears it.
 */
export class SignInThrottle {
  private attempts = new Map<string, number[]>();
  /** The end of the lock each key's refusals were already reported for. */
  private reported = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxFailures = MAX_FAILURES_PER_ACCOUNT,
  ) {}

  private recent(key: string, now: number): number[] {
    const since = now - WINDOW_MS;
    const list = (this.attempts.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) {
      this.attempts.delete(key);
      this.reported.delete(key);
    } else this.attempts.set(key, list);
    return list;
  }

  /**
   * When the lock on a key with these recent attempts ends (the oldest leaves the window), or null
   * while they are under the limit. Taken from the attempts, not the clock: each refusal of one
   * lock names the same end.
   */
  private lockEnd(recent: number[]): number | null {
    return recent.length >= this.maxFailures ? recent[0]! + WINDOW_MS : null;
  }

  /** Milliseconds until the key may try again, or 0. */
  lockedFor(key: string): number {
    const now = this.now();
    const end = this.lockEnd(this.recent(key, now));
    return end === null ? 0 : end - now;
  }

  /**
   * Lets one attempt through and counts it at once, or says how long the key is locked.
   * Synchronous, with one reading of the clock: no race, and no lock reported twice because a
   * millisecond passed between two readings.
   */
  attempt(key: string): Reserved | Locked {
    const at = this.now();
    const list = this.recent(key, at);
    const end = this.lockEnd(list);
    if (end !== null) {
      const newLock = this.reported.get(key) !== end;
      if (newLock) this.reported.set(key, end);
      return { ok: false, waitMs: end - at, newLock };
    }
    list.push(at);
    this.attempts.set(key, list);
    // The oldest key goes first (a Map keeps insertion order).
    if (this.attempts.size > MAX_KEYS) {
      const oldest = this.attempts.keys().next().value!;
      this.attempts.delete(oldest);
      this.reported.delete(oldest);
    }
    return {
      ok: true,
      release: () => {
        const now = this.attempts.get(key);
        const i = now?.indexOf(at) ?? -1;
        if (i >= 0) now!.splice(i, 1);
        if (now?.length === 0) this.attempts.delete(key);
      },
    };
  }

  /** Keys remembered now. */
  get size(): number {
    return this.attempts.size;
  }

  /** The right password: the key's count starts again. */
  succeed(key: string): void {
    this.attempts.delete(key);
    this.reported.delete(key);
  }
}
