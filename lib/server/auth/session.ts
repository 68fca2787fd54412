import "server-only";
import { decode, getToken, type JWT } from "next-auth/jwt";
import { cookies, headers } from "next/headers";
import type { NextRequest } from "next/server";
import { isRole, type Role } from "@/lib/shared/roles";
import { ownOrigin } from "../http/origin";
import { noteUser } from "../http/request-context";
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

/** Set by the dashboard's own client (lib/client/api.ts) on a request the person made happen. */
export const ACTIVITY_HEADER = "x-dashboard-activity";
const CHANGES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether an API request is the person's own doing, which renews the idle timeout: a change, a
 * page or file the browser navigates to, or a request the client marks. A background poll and
 * the live stream are none of these. The mark is only the client's word: forging it keeps alive
 * only the session of whoever holds the cookie, which they could do by clicking anyway.
 */
export const personActed = (request: { method: string; headers: Headers }): boolean =>
  CHANGES.has(request.method) ||
  request.headers.get(ACTIVITY_HEADER) === "1" ||
  request.headers.get("sec-fetch-mode") === "navigate";

/** A page rendered for the person: any load but Next's prefetch of a link they have not followed. */
const pageLoad = (headers: Headers): boolean =>
  !headers.has("next-router-prefetch") && !headers.has("next-router-segment-prefetch");

/**
 * The staff member whose next-auth session `source` carries, and the session's id; or null:
 * next-auth's own `getToken` finds the session cookie and `decode` decrypts and checks it,
 * expiry included; then the session's row must still be live (not signed out or revoked, not
 * idle, not past its absolute lifetime), and the role is the row's. `activity` renews the idle
 * timeout. Over https the cookie's name has the "__Secure-" prefix, as next-auth sets it.
 */
export async function signedIn(
  source: SessionSource,
  secret: string,
  sessions: Pick<SessionStore, "use">,
  { activity = false }: { activity?: boolean } = {},
): Promise<{ user: SignedInUser; sessionId: string } | null> {
  const secureCookie = ownOrigin(source).startsWith("https:");
  // getToken reads only the request's cookies and headers; `raw` leaves the decoding to the cache.
  const token = await getToken({ req: source as unknown as NextRequest, secret, secureCookie, raw: true });
  if (!token) return null;
  const claims = await decoded(token, (t) => decode({ token: t, secret }).catch(() => null));
  if (!claims || typeof claims.email !== "string" || !isRole(claims.role) || typeof claims.sid !== "string")
    return null;
  const live = await sessions.use(claims.sid, { activity });
  if (!live || live.email !== claims.email) return null;
  const name = typeof claims.name === "string" ? claims.name : claims.email;
  return { user: { email: live.email, name, role: live.role }, sessionId: claims.sid };
}

/** The staff member of `source`'s session, or null (see `signedIn`); renews nothing. */
export async function sessionUser(
  source: SessionSource,
  secret: string,
  sessions: Pick<SessionStore, "use">,
): Promise<SignedInUser | null> {
  return (await signedIn(source, secret, sessions))?.user ?? null;
}

const decoded = createSessionCache<JWT>();

/**
 * The signed-in session of a route handler's request (renewed when the person acted, unless
 * `renews` is false: the live stream), or of the page being rendered (renewed by its load); or null.
 */
export async function currentSession(
  request?: SessionSource & { method: string },
  getRuntime: () => Promise<Runtime> = processRuntime,
  { renews = true }: { renews?: boolean } = {},
): Promise<{ user: SignedInUser; sessionId: string } | null> {
  const { sessions, authSecret } = await getRuntime();
  const source = request ?? { cookies: await cookies(), headers: await headers() };
  const activity = renews && (request ? personActed(request) : pageLoad(source.headers));
  const session = await signedIn(source, authSecret, sessions, { activity });
  // The request's log line says who it was.
  if (session) noteUser(session.user);
  return session;
}

/** The signed-in staff member of a route handler's request, or of the page being rendered; or null. */
export async function currentUser(
  request?: SessionSource & { method: string },
  getRuntime: () => Promise<Runtime> = processRuntime,
): Promise<SignedInUser | null> {
  return (await currentSession(request, getRuntime))?.user ?? null;
}
