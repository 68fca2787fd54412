/**
 * Where a request carries credentials, for the route wrapper (route.ts): a personal API token in
 * `Authorization: Bearer`, the only place one is taken; one anywhere else (a query string, a
 * cookie), refused; and whether the session cookie came too. Pure functions of the request.
 */

/** The bearer credential of `Authorization`, or null when there is none (another scheme is no bearer). */
export function bearerOf(headers: Headers): string | null {
  const found = /^Bearer[ \t]+(\S*)[ \t]*$/i.exec(headers.get("authorization") ?? "");
  return found ? found[1]! : null;
}

/** next-auth's session cookie, over http or https, whole or in chunks. */
const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?$/;

const cookiesOf = (headers: Headers): { name: string; value: string }[] =>
  (headers.get("cookie") ?? "")
    .split(";")
    .map((part) => {
      const at = part.indexOf("=");
      return at < 0
        ? { name: part.trim(), value: "" }
        : { name: part.slice(0, at).trim(), value: part.slice(at + 1).trim() };
    })
    .filter((c) => c.name || c.value);

export const hasSessionCookie = (headers: Headers): boolean =>
  cookiesOf(headers).some((c) => SESSION_COOKIE.test(c.name));

/** A token's secret, whole, anywhere in `value` (as sent, or %-decoded). */
const SECRET_IN = /dsk_[A-Za-z0-9_-]{43}/;

const looksLikeSecret = (value: string): boolean => {
  if (SECRET_IN.test(value)) return true;
  try {
    return SECRET_IN.test(decodeURIComponent(value));
  } catch {
    return false;
  }
};

/**
 * Where a token's secret sits outside `Authorization` ("query string", "cookie"), or null. Such
 * a request is refused whole: a URL is logged and kept in histories, and a cookie is sent by a
 * browser without its page's asking.
 */
export function misplacedSecret(request: { url: string; headers: Headers }): "query string" | "cookie" | null {
  const url = new URL(request.url);
  for (const [name, value] of url.searchParams) {
    // RFC 6750's `access_token` query parameter, whatever it holds, is no way in either.
    if (name === "access_token" || looksLikeSecret(value) || looksLikeSecret(name)) return "query string";
  }
  if (cookiesOf(request.headers).some((c) => looksLikeSecret(c.value) || looksLikeSecret(c.name))) return "cookie";
  return null;
}
