import "server-only";
import { env } from "./env";

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
 * The caller's address for the audit trail: the first X-Forwarded-For entry, which Next sets
 * from the connection when no proxy sent one.
 */
export function clientIp(request: Request): string | null {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || null;
}
