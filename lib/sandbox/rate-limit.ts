/**
 * Token buckets per key: `ratePerSecond` requests on average, bursts of one second's worth.
 * The real service limits per endpoint and answers 429 past it.
 */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes one request's token; returns 0 when allowed, else the seconds to wait. */
  take(key: string, ratePerSecond: number): number {
    const now = this.now();
    const capacity = Math.max(1, ratePerSecond);
    const b = this.buckets.get(key) ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * ratePerSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / ratePerSecond);
  }
}
