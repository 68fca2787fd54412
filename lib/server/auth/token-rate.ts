import "server-only";

/**
 * Each personal API token's own rate (issue 28): a token bucket per token id, `perMinute` deep,
 * refilled evenly over the minute on the runtime's clock. In memory: each instance counts its
 * own requests. The calls to the service these requests make are under the desk's shared budget
 * besides (lib/server/upstream/limiter.ts), whoever makes them.
 */

/** Buckets kept at most; the longest unused is forgotten first (and starts full again). */
const KEPT = 10_000;

export interface TokenRate {
  /** Takes one request of `tokenId`'s: 0 when allowed, else the milliseconds until one is. */
  take(tokenId: string): number;
}

export function tokenRate(perMinute: number, now: () => number): TokenRate {
  const buckets = new Map<string, { left: number; at: number }>();
  const msPerRequest = 60_000 / perMinute;
  return {
    take(tokenId) {
      const t = now();
      const known = buckets.get(tokenId);
      const bucket = known
        ? { left: Math.min(perMinute, known.left + Math.max(0, t - known.at) / msPerRequest), at: t }
        : { left: perMinute, at: t };
      // Kept in the order of last use, so the oldest is the first key.
      buckets.delete(tokenId);
      buckets.set(tokenId, bucket);
      if (buckets.size > KEPT) buckets.delete(buckets.keys().next().value!);
      if (bucket.left >= 1) {
        bucket.left -= 1;
        return 0;
      }
      return Math.ceil((1 - bucket.left) * msPerRequest);
    },
  };
}
