import "server-only";
import { decode, getToken, type JWT } from "next-auth/jwt";
import { cookies, headers } from "next/headers";
import type { NextRequest } from "next/server";
import { isRole, type Role } from "@/lib/roles";
import { ownOrigin } from "../origin";
import { authSecret } from "../secrets";
import { createSessionCache } from "./session-cache";

export interface SignedInUser {
  email: string;
  name: string;
  role: Role;
}

/** Where a session is read: a route handler's request (a NextRequest), or a page's cookies and headers. */
export interface SessionSource {
  cookies: { getAll(): { name: string; value: string }[] };
  headers: Headers;
  url?: string;
}

/**
 * The staff member whose next-auth session `source` carries, or null: next-auth's own
 * `getToken` finds the session cookie and `decode` decrypts and checks it, expiry included.
 * Over https the cookie's name has the "__Secure-" prefix, as next-auth sets it.
 */
export async function sessionUser(source: SessionSource, secret: string): Promise<SignedInUser | null> {
  const secureCookie = ownOrigin(source).startsWith("https:");
  // getToken reads only the request's cookies and headers; `raw` leaves the decoding to the cache.
  const token = await getToken({ req: source as unknown as NextRequest, secret, secureCookie, raw: true });
  if (!token) return null;
  const claims = await decoded(token, (t) => decode({ token: t, secret }).catch(() => null));
  if (!claims || typeof claims.email !== "string" || !isRole(claims.role)) return null;
  const name = typeof claims.name === "string" ? claims.name : claims.email;
  return { email: claims.email, name, role: claims.role };
}

const decoded = createSessionCache<JWT>();

/** The signed-in staff member of a route handler's request, or of the page being rendered; or null. */
export async function currentUser(request?: SessionSource): Promise<SignedInUser | null> {
  return sessionUser(request ?? { cookies: await cookies(), headers: await headers() }, authSecret());
}
