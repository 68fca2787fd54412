import { isIP } from "node:net";

/**
 * Who is really on the other end of the connection. Next fills X-Forwarded-For from the socket
 * only when the caller sent none, so the header alone cannot tell a proxy's word from a
 * caller's claim. The server therefore stamps each request with its socket's address, in a
 * header it overwrites (a caller cannot set it: lib/server/http/incoming.ts); X-Forwarded-For
 * is believed only when that address is one of TRUSTED_PROXY_IPS.
 */
export const PEER_HEADER = "x-dashboard-peer-address";

/** "::ffff:10.0.0.1" and "10.0.0.1" are one address. */
export const normal = (address: string) => address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

/** TRUSTED_PROXY_IPS as a set of addresses. */
export const trustedProxies = (list: string | undefined): ReadonlySet<string> =>
  new Set((list ?? "").split(",").map(normal).filter(Boolean));

/**
 * The caller's address: the socket's, unless that is a trusted proxy; then the nearest
 * X-Forwarded-For entry that is not itself a trusted proxy (entries to its left are the
 * caller's own claims). Null when the request carries no peer stamp and no trusted word.
 */
export function callerAddress(headers: Headers, trusted: ReadonlySet<string>): string | null {
  const peer = normal(headers.get(PEER_HEADER) ?? "");
  if (!peer) return null;
  if (!trusted.has(peer)) return peer;
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map(normal).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted.has(hops[i]!) && isIP(hops[i]!)) return hops[i]!;
  }
  return peer;
}
