import "server-only";
import { env } from "../env";
import { callerAddress, trustedProxies } from "./peer-address";

/** The dashboard's own origin as the browser sees it, from a request or a page's headers. */
export function ownOrigin(request: { headers: Headers; url?: string }): string {
  if (env.NEXTAUTH_URL) return new URL(env.NEXTAUTH_URL).origin;
  const url = request.url ? new URL(request.url) : undefined;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? url?.host;
  const proto = request.headers.get("x-forwarded-proto") ?? url?.protocol.replace(":", "") ?? "http";
  return `${proto}://${host}`;
}

/**
 * CSRF defence for cookie-authenticated requests: a change must come from a page of the
 * dashboard itself. Browsers always send Origin on POST, PUT, PATCH and DELETE.
 */
export function isSameOrigin(request: Request): boolean {
  return request.headers.get("origin") === ownOrigin(request);
}

/**
 * The caller's address, for the audit trail and sign-in throttling: the connection's own,
 * or what a trusted proxy (TRUSTED_PROXY_IPS) says in X-Forwarded-For; never a caller's claim.
 */
export function clientIp(request: { headers: Headers }): string | null {
  return callerAddress(request.headers, (trusted ??= trustedProxies(env.TRUSTED_PROXY_IPS)));
}
let trusted: ReadonlySet<string> | undefined;
