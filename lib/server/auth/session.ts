import "server-only";
import { decode } from "next-auth/jwt";
import { cookies } from "next/headers";
import { isRole, type Role } from "@/lib/roles";
import { authSecret } from "./secret";

export interface SignedInUser {
  email: string;
  name: string;
  role: Role;
}

/** next-auth's JWT session cookie; "__Secure-" when the dashboard is served over https. */
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** The cookie's value; next-auth splits one over 4 KB into name.0, name.1, ... */
function sessionToken(jar: ReadonlyMap<string, string>): string | undefined {
  for (const name of SESSION_COOKIES) {
    const whole = jar.get(name);
    if (whole) return whole;
    const chunks = [...jar]
      .filter(([chunk]) => chunk.startsWith(`${name}.`))
      .sort(([a], [b]) => Number(a.slice(name.length + 1)) - Number(b.slice(name.length + 1)));
    if (chunks.length > 0) return chunks.map(([, value]) => value).join("");
  }
  return undefined;
}

/**
 * A Cookie header's cookies, read as Next's `cookies()` reads them (values URI-decoded, a
 * later duplicate wins). A route handler has its request at hand: `cookies()` would build
 * Next's mutable cookie store for it, which costs more than the rest of the session check.
 */
function cookieHeaderJar(header: string | null): Map<string, string> {
  const jar = new Map<string, string>();
  for (const pair of (header ?? "").split(/; */)) {
    if (!pair) continue;
    const at = pair.indexOf("=");
    if (at === -1) {
      jar.set(pair, "true");
      continue;
    }
    try {
      jar.set(pair.slice(0, at), decodeURIComponent(pair.slice(at + 1)));
    } catch {
      // a malformed escape: Next skips the cookie too
    }
  }
  return jar;
}

/**
 * The signed-in staff member, or null. The session JWT is decrypted and checked (expiry
 * included) with next-auth's own `decode`; unlike getServerSession, which runs the whole
 * session endpoint and re-encrypts the token on every call, for a cookie that a route
 * handler cannot set anyway. This runs on every API request, which passes its `request`
 * (pages have none and read Next's cookies).
 */
export async function currentUser(request?: Request): Promise<SignedInUser | null> {
  const jar = request
    ? cookieHeaderJar(request.headers.get("cookie"))
    : new Map((await cookies()).getAll().map((c) => [c.name, c.value] as const));
  const token = sessionToken(jar);
  if (!token) return null;
  const known = decoded.get(token);
  if (known && Date.now() < known.until) return known.user;
  let claims: Awaited<ReturnType<typeof decode>>;
  try {
    claims = await decode({ token, secret: authSecret() });
  } catch {
    return null; // tampered, expired, or signed with another secret
  }
  if (!claims || typeof claims.email !== "string" || !isRole(claims.role)) return null;
  const user = {
    email: claims.email,
    name: typeof claims.name === "string" ? claims.name : claims.email,
    role: claims.role,
  };
  if (decoded.size >= 1000) decoded.clear();
  // Until the token expires, and a minute at most: the same token always decodes to the same claims.
  decoded.set(token, {
    user,
    until: Math.min(Date.now() + 60_000, typeof claims.exp === "number" ? claims.exp * 1000 : 0),
  });
  return user;
}

/** Sessions decoded lately, by their token: decrypting costs a key derivation and an AES-GCM pass per request. */
const decoded = new Map<string, { user: SignedInUser; until: number }>();
