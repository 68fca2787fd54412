import "server-only";

const WINDOW_MS = 15 * 60_000;
/** Per account: a person mistyping. */
export const MAX_FAILURES_PER_ACCOUNT = 5;
/** Per address: many accounts guessed from one place (an office behind one NAT stays well under it). */
export const MAX_FAILURES_PER_IP = 20;
/** Keys remembered at most: one spraying caller cannot grow the map without bound. */
const MAX_KEYS = 10_000;

/**
 * Failed sign-in attempts per key (an email, or an address): after `maxFailures` within 15
 * minutes the key is locked until the oldest of them is 15 minutes old. Kept in memory: a
 * restart clears it.
 */
export class SignInThrottle {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxFailures = MAX_FAILURES_PER_ACCOUNT,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - WINDOW_MS;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** Milliseconds until the key may try again, or 0. */
  lockedFor(key: string): number {
    const list = this.recent(key);
    return list.length >= this.maxFailures ? list[0]! + WINDOW_MS - this.now() : 0;
  }

  fail(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.failures.set(key, list);
    // The oldest key goes first (a Map keeps insertion order).
    if (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
  }

  /** Keys remembered now. */
  get size(): number {
    return this.failures.size;
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}
