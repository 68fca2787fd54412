import "server-only";
import { decode, getToken, type JWT } from "next-auth/jwt";
import { cookies, headers } from "next/headers";
import type { NextRequest } from "next/server";
import { isRole, type Role } from "@/lib/roles";
import { ownOrigin } from "../origin";
import { noteUser } from "../request-context";
import { authSecret } from "../secrets";
import { createSessionCache } from "./session-cache";
import type { SessionStore } from "./sessions";
import { runtime as processRuntime, type Runtime } from "../runtime";

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
 * `getToken` finds the session cookie and `decode` decrypts and checks it, expiry included;
 * then the session's row must still be live (not signed out or revoked, not idle, not past
 * its absolute lifetime), and the role is the row's. Over https the cookie's name has the
 * "__Secure-" prefix, as next-auth sets it.
 */
export async function sessionUser(
  source: SessionSource,
  secret: string,
  sessions: Pick<SessionStore, "use">,
): Promise<SignedInUser | null> {
  const secureCookie = ownOrigin(source).startsWith("https:");
  // getToken reads only the request's cookies and headers; `raw` leaves the decoding to the cache.
  const token = await getToken({ req: source as unknown as NextRequest, secret, secureCookie, raw: true });
  if (!token) return null;
  const claims = await decoded(token, (t) => decode({ token: t, secret }).catch(() => null));
  if (!claims || typeof claims.email !== "string" || !isRole(claims.role) || typeof claims.sid !== "string")
    return null;
  const live = await sessions.use(claims.sid);
  if (!live || live.email !== claims.email) return null;
  const name = typeof claims.name === "string" ? claims.name : claims.email;
  return { email: live.email, name, role: live.role };
}

const decoded = createSessionCache<JWT>();

/** The signed-in staff member of a route handler's request, or of the page being rendered; or null. */
export async function currentUser(
  request?: SessionSource,
  getRuntime: () => Promise<Runtime> = processRuntime,
): Promise<SignedInUser | null> {
  const { sessions } = await getRuntime();
  const user = await sessionUser(
    request ?? { cookies: await cookies(), headers: await headers() },
    authSecret(),
    sessions,
  );
  // The request's log line says who it was.
  if (user) noteUser(user);
  return user;
}
