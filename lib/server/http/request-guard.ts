import { BODY_LIMIT_BYTES } from "@/lib/server/http/toolkit";
import { problem, type Problem } from "@/lib/spec";

/**
 * What the request proxy (proxy.ts) checks and adds before any route runs. Pure functions of
 * the request's parts, so each rule is tested without a server.
 */

/**
 * Next decodes every dynamic path segment itself, and a broken %-escape there ("%ZZ", "%",
 * "a%2", a truncated UTF-8 sequence) fails inside Next with a plain 500 before any handler
 * runs; so the whole path is checked here first.
 */
export function pathProblem(pathname: string): Problem | null {
  try {
    for (const segment of pathname.split("/")) decodeURIComponent(segment);
    return null;
  } catch {
    return problem(400, "Bad Request", "The path is not validly percent-encoded (a broken %-escape).", {
      field: "path",
    });
  }
}

const WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The 413 for a body whose declared length is past its route's cap (sign-in included), or null. */
export function declaredBodyProblem(
  method: string,
  contentLength: string | null,
  limit = BODY_LIMIT_BYTES,
): Problem | null {
  if (!WITH_BODY.has(method) || contentLength === null) return null;
  const length = Number(contentLength);
  if (!Number.isFinite(length) || length <= limit) return null;
  return problem(413, "Content Too Large", `The request body may be at most ${limit} bytes.`, {
    limit_bytes: limit,
  });
}

/** True when a body of unknown length (chunked) must be measured before it goes on. */
export const mustMeasureBody = (method: string, headers: Headers): boolean =>
  WITH_BODY.has(method) && headers.get("content-length") === null && headers.has("transfer-encoding");

/** A fresh, unguessable nonce for one response's scripts. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The policy of one page response: only scripts that carry this response's nonce run, and what
 * they load ('strict-dynamic'); no inline script or eval in production. `next dev` needs eval
 * for React's debugging. Styles keep 'unsafe-inline' (style attributes cannot carry a nonce).
 */
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** HSTS for two years once the dashboard's public URL is https; none over plain http (a demo). */
export function strictTransportSecurity(publicUrl: string | undefined): string | null {
  try {
    return publicUrl && new URL(publicUrl).protocol === "https:" ? "max-age=63072000; includeSubDomains" : null;
  } catch {
    return null;
  }
}
