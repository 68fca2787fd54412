import "server-only";

const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 5;

/**
 * Failed sign-in attempts per key (the email): after 5 within 15 minutes the key is
 * locked until the oldest of them is 15 minutes old. Kept in memory: a restart clears it.
 */
export class SignInThrottle {
  private failures = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  private recent(key: string): number[] {
    const since = this.now() - WINDOW_MS;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    this.failures.set(key, list);
    return list;
  }

  /** Milliseconds until the key may try again, or 0. */
  lockedFor(key: string): number {
    const list = this.recent(key);
    return list.length >= MAX_FAILURES ? list[0]! + WINDOW_MS - this.now() : 0;
  }

  fail(key: string): void {
    this.recent(key).push(this.now());
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}
