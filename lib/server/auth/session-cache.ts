import "server-only";
import { LRUCache } from "lru-cache";

/**
 * Decoded sessions, by their token. Decrypting next-auth's session JWT (a key derivation and
 * an AES-GCM pass) costs about 0.27 ms, some 15% of what the back end adds to a create
 * (`npm run bench:proxy`); the same token always decodes to the same claims, so each is kept
 * for a minute at most, and never past its own expiry. A refused token is not kept.
 */
export function createSessionCache<Claims extends object>(
  options: { max?: number; ttlMs?: number; now?: () => number } = {},
) {
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  // ttlResolution 0: expiry is read from `now` on every get, not from a clock cached for a millisecond.
  const cache = new LRUCache<string, { claims: Claims }>({ max: options.max ?? 1000, perf: { now }, ttlResolution: 0 });
  return async function decoded(token: string, decode: (token: string) => Promise<Claims | null>) {
    const known = cache.get(token);
    if (known) return known.claims;
    const claims = await decode(token);
    const exp = (claims as { exp?: unknown } | null)?.exp;
    const ttl = Math.min(ttlMs, typeof exp === "number" ? exp * 1000 - now() : 0);
    if (claims && ttl > 0) cache.set(token, { claims }, { ttl });
    return claims;
  };
}
