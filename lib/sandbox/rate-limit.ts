/**
 * The service's rate limits: a token bucket per caller and endpoint class (`ratePerSecond` on
 * average, bursts of one second's worth), and a penalty: a caller that earns a 429 is refused
 * everything for `penaltyMs`, as the real service refuses an IP for five minutes.
 *
 * A caller is an authenticated client ("client:dashboard") or, before or without
 * authentication, an address ("ip:192.0.2.1"), so nobody can spend another's budget by naming
 * its client_id. Idle callers are forgotten: a full bucket is the same as no bucket, and at
 * most `maxKeys` are kept, the least recently seen dropped first.
 */

export interface RateLimiterOptions {
  /** How long a caller that earned a 429 is refused (0: no penalty). */
  penaltyMs?: number;
  /** The most callers × classes remembered at once. */
  maxKeys?: number;
}

/** Why a request is refused, and for how many seconds more (said in the 429's detail: the service sends no Retry-After). */
export interface Refusal {
  retryAfterSeconds: number;
  reason: "rate" | "penalty";
}

interface Bucket {
  tokens: number;
  at: number;
  /** When the bucket is full again, and so forgettable. */
  fullAt: number;
}

const SWEEP_EVERY_MS = 1000;

export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private penalties = new Map<string, number>();
  private sweptAt: number;
  private readonly penaltyMs: number;
  private readonly maxKeys: number;

  constructor(
    private readonly now: () => number = Date.now,
    options: RateLimiterOptions = {},
  ) {
    this.penaltyMs = options.penaltyMs ?? 0;
    this.maxKeys = options.maxKeys ?? 50_000;
    this.sweptAt = now();
  }

  /**
   * Takes one request's token from the caller's bucket of this class; null when allowed, else
   * the refusal. A refusal for the rate starts the caller's penalty.
   */
  take(caller: string, bucketClass: string, ratePerSecond: number): Refusal | null {
    const now = this.now();
    this.sweep(now);
    const penaltyEnds = this.penalties.get(caller);
    if (penaltyEnds !== undefined && now < penaltyEnds) {
      return { retryAfterSeconds: Math.ceil((penaltyEnds - now) / 1000), reason: "penalty" };
    }
    const key = `${caller}|${bucketClass}`;
    const capacity = Math.max(1, ratePerSecond);
    const b = this.buckets.get(key) ?? { tokens: capacity, at: now, fullAt: now };
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * ratePerSecond);
    b.at = now;
    // Re-inserted so the map's order is least recently seen first.
    this.buckets.delete(key);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      b.fullAt = now + ((capacity - b.tokens) / ratePerSecond) * 1000;
      this.buckets.set(key, b);
      this.evictOverflow();
      return null;
    }
    b.fullAt = now + ((capacity - b.tokens) / ratePerSecond) * 1000;
    this.buckets.set(key, b);
    this.evictOverflow();
    if (this.penaltyMs > 0) {
      this.penalties.set(caller, now + this.penaltyMs);
      if (this.penalties.size > this.maxKeys) this.penalties.delete(this.penalties.keys().next().value!);
      return { retryAfterSeconds: Math.ceil(this.penaltyMs / 1000), reason: "penalty" };
    }
    return { retryAfterSeconds: Math.ceil((1 - b.tokens) / ratePerSecond), reason: "rate" };
  }

  /** How many callers × classes and penalties are remembered (for tests of the bound). */
  get size(): number {
    return this.buckets.size + this.penalties.size;
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const [key, b] of this.buckets) if (b.fullAt <= now) this.buckets.delete(key);
    for (const [caller, ends] of this.penalties) if (ends <= now) this.penalties.delete(caller);
  }

  private evictOverflow(): void {
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxKeys) return;
      this.buckets.delete(key);
    }
  }
}
