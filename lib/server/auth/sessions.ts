import "server-only";
import { randomBytes } from "node:crypto";
import { isRole, type Role } from "@/lib/roles";
import type { Db } from "../db";

/**
 * Revocable sessions: each sign-in is a row, and the session cookie carries only its id
 * (`sid`). A cookie is worth something only while its row is live: not revoked (sign-out, or
 * an admin), used within the idle timeout, and younger than the absolute lifetime, which
 * renewing the cookie never extends. The row is read again at least once a minute, so a
 * revocation or a role changed in it reaches every instance within that minute (at once in
 * the instance that revoked it).
 */

/** The absolute lifetime of a sign-in. */
export const SESSION_MAX_MS = 8 * 60 * 60_000;
/** How long a checked row is believed without reading it again. */
export const RECHECK_MS = 60_000;

export interface SessionRow {
  id: string;
  user_email: string;
  user_role: string;
  provider: string;
  ip: string | null;
  started_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface LiveSession {
  email: string;
  role: Role;
}

export function createSessionStore(db: Db, options: { idleMinutes: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const idleMs = options.idleMinutes * 60_000;
  const checked = new Map<string, { session: LiveSession; at: number }>();

  /** Ends a session: its row is marked, and this instance forgets it at once. */
  async function revoke(id: string): Promise<SessionRow | null> {
    checked.delete(id);
    const row = await db
      .selectFrom("sessions")
      .selectAll()
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (!row) return null;
    await db
      .updateTable("sessions")
      .set({ revoked_at: new Date(now()).toISOString() })
      .where("id", "=", id)
      .execute();
    return row;
  }

  return {
    /** A new row for a sign-in; its id goes into the session cookie. */
    async start(user: { email: string; role: Role; provider: string; ip: string | null }): Promise<string> {
      const id = randomBytes(24).toString("base64url");
      const at = new Date(now());
      await db
        .insertInto("sessions")
        .values({
          id,
          user_email: user.email,
          user_role: user.role,
          provider: user.provider,
          ip: user.ip,
          started_at: at.toISOString(),
          last_seen_at: at.toISOString(),
          expires_at: new Date(at.getTime() + SESSION_MAX_MS).toISOString(),
          revoked_at: null,
        })
        .execute();
      return id;
    },

    /**
     * Who the session `id` belongs to while it is live, or null; a use counts as activity for
     * the idle timeout (written at most once a minute). An idle or expired row is revoked.
     */
    async use(id: string): Promise<LiveSession | null> {
      const t = now();
      const known = checked.get(id);
      if (known && t - known.at < RECHECK_MS) return known.session;
      checked.delete(id);
      const row = await db
        .selectFrom("sessions")
        .selectAll()
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (!row || !isRole(row.user_role)) return null;
      if (Date.parse(row.expires_at) <= t || Date.parse(row.last_seen_at) + idleMs <= t) {
        await revoke(id);
        return null;
      }
      await db
        .updateTable("sessions")
        .set({ last_seen_at: new Date(t).toISOString() })
        .where("id", "=", id)
        .execute();
      const session = { email: row.user_email, role: row.user_role };
      checked.set(id, { session, at: t });
      if (checked.size > 10_000) checked.delete(checked.keys().next().value!);
      return session;
    },

    revoke,

    /** Live sessions, newest first: what an admin sees. */
    async active(): Promise<SessionRow[]> {
      const t = now();
      const rows = await db
        .selectFrom("sessions")
        .select(["id", "user_email", "user_role", "provider", "ip", "started_at", "last_seen_at", "expires_at"])
        .where("revoked_at", "is", null)
        .where("expires_at", ">", new Date(t).toISOString())
        .where("last_seen_at", ">", new Date(t - idleMs).toISOString())
        .orderBy("started_at", "desc")
        .limit(1000)
        .execute();
      return rows;
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
