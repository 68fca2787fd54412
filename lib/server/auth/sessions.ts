import "server-only";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { isRole, type Role } from "@/lib/shared/roles";
import { systemClock, type Clock } from "../clock";
import type { Db } from "../db";

/**
 * Revocable sessions: each sign-in is a row, and the session cookie carries only its id
 * (`sid`). A cookie is worth something only while its row is live: not revoked (sign-out, or
 * an admin), used by its person within the idle timeout, and younger than the absolute
 * lifetime, which renewing the cookie never extends.
 *
 * Only what the person does renews it (`use(id, { activity: true })`): page loads, changes, and
 * requests the dashboard's client marks as the person's own; background polls and the live
 * stream never do. A revocation is refused at once on the instance that made it, and reaches
 * the others by `announce` (LISTEN/NOTIFY on PostgreSQL); the row is read again at least once a
 * minute besides, so a role changed in it, or a notice lost with a connection, still arrives.
 * Whoever `watch`es a session (a live stream) hears of its end: a revocation here or there at
 * once, the idle timeout or the absolute lifetime at its moment.
 */

/** The absolute lifetime of a sign-in. */
export const SESSION_MAX_MS = 8 * 60 * 60_000;
/** How long a checked row is believed without reading it again. */
export const RECHECK_MS = 60_000;
/** Sessions known to have ended, remembered so a late request is refused without a read. */
const ENDED_KEPT = 10_000;

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

interface Checked {
  session: LiveSession;
  at: number;
  lastSeen: number;
  expires: number;
}

export interface SessionStoreOptions {
  idleMinutes: number;
  /** Default: the machine's clock. */
  clock?: Clock;
  /** Tells every other instance that a session ended (they call `ended`). */
  announce?: (id: string) => void;
}

export function createSessionStore(db: Db, options: SessionStoreOptions) {
  const clock = options.clock ?? systemClock;
  const now = clock.now;
  const idleMs = options.idleMinutes * 60_000;
  // last_seen_at is written at most this often: a minute, or a tenth of a short idle timeout.
  const renewEveryMs = Math.min(60_000, idleMs / 10);
  const checked = new Map<string, Checked>();
  const endedHere = new Set<string>();
  const watchers = new Map<string, { listeners: Set<() => void>; cancel?: () => void }>();

  const deadline = (c: { lastSeen: number; expires: number }) => Math.min(c.lastSeen + idleMs, c.expires);

  /** This instance forgets the session, refuses it from now on, and tells its watchers. */
  function ended(id: string): void {
    checked.delete(id);
    endedHere.add(id);
    if (endedHere.size > ENDED_KEPT) endedHere.delete(endedHere.values().next().value!);
    const watched = watchers.get(id);
    if (!watched) return;
    watchers.delete(id);
    watched.cancel?.();
    for (const listener of watched.listeners) listener();
  }

  /** Ends a session: its row is marked, this instance refuses it at once, the others on notice. */
  async function revoke(id: string): Promise<SessionRow | null> {
    ended(id);
    options.announce?.(id);
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

  /** The row's state now, read from the database: live (and until when), or ended (revoked on the way). */
  async function read(id: string): Promise<Checked | null> {
    const row = await db
      .selectFrom("sessions")
      .selectAll()
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (!row || !isRole(row.user_role)) {
      ended(id);
      return null;
    }
    const state = {
      session: { email: row.user_email, role: row.user_role },
      at: now(),
      lastSeen: Date.parse(row.last_seen_at),
      expires: Date.parse(row.expires_at),
    };
    if (deadline(state) <= state.at) {
      await revoke(id);
      return null;
    }
    return state;
  }

  async function renew(id: string, state: Checked, t: number): Promise<void> {
    if (t - state.lastSeen < renewEveryMs) return;
    state.lastSeen = t;
    await db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(t).toISOString() })
      .where("id", "=", id)
      .execute();
  }

  /** Reads a watched session again after `waitMs`: at its deadline, or within RECHECK_MS. */
  function schedule(id: string, waitMs: number): void {
    const watched = watchers.get(id);
    if (!watched) return;
    watched.cancel?.();
    watched.cancel = clock.after(waitMs, async () => {
      try {
        const state = await read(id);
        if (state) schedule(id, untilCheck(state));
      } catch {
        schedule(id, 1_000); // the database unreachable for a moment
      }
    });
  }
  const untilCheck = (state: Checked) => Math.max(0, Math.min(deadline(state) - now(), RECHECK_MS));

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
     * Who the session `id` belongs to while it is live, or null. `activity`: the person did
     * this (a page load, a change, a request marked as theirs), which renews the idle timeout.
     */
    async use(id: string, { activity = false }: { activity?: boolean } = {}): Promise<LiveSession | null> {
      if (endedHere.has(id)) return null;
      const t = now();
      let state = checked.get(id);
      // Believed for a minute, and never past its deadline as last read: then the row decides.
      if (!state || t - state.at >= RECHECK_MS || t >= deadline(state)) {
        checked.delete(id);
        const fresh = await read(id);
        if (!fresh) return null;
        state = fresh;
        checked.set(id, state);
        if (checked.size > 10_000) checked.delete(checked.keys().next().value!);
      }
      if (activity) await renew(id, state, t);
      return state.session;
    },

    revoke,

    /** Another instance ended this session: refuse it here too, and tell its watchers. */
    ended,

    /**
     * Calls `onEnd` once when the session ends (revoked here or elsewhere, idle, or past its
     * lifetime), or at once if it already has; answers the function that stops watching.
     */
    watch(id: string, onEnd: () => void): () => void {
      if (endedHere.has(id)) {
        queueMicrotask(onEnd);
        return () => {};
      }
      let watched = watchers.get(id);
      if (!watched) {
        watched = { listeners: new Set() };
        watchers.set(id, watched);
        const state = checked.get(id);
        schedule(id, state ? untilCheck(state) : 0);
      }
      watched.listeners.add(onEnd);
      return () => {
        const w = watchers.get(id);
        if (!w?.listeners.delete(onEnd) || w.listeners.size > 0) return;
        w.cancel?.();
        watchers.delete(id);
      };
    },

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

/**
 * A person's role as it is now: their newest sign-in's (an identity provider's answer then), or
 * null when they never signed in. What the controls weigh, and what a personal API token acts with.
 */
export async function latestRole(db: Db, email: string): Promise<Role | null> {
  const row = await db
    .selectFrom("sessions")
    .select("user_role")
    .where("user_email", "=", email)
    .orderBy("started_at", "desc")
    .executeTakeFirst();
  return row && isRole(row.user_role) ? row.user_role : null;
}

/**
 * Everyone who ever signed in, each once with their role as it is now (their newest sign-in's, as
 * `latestRole` reads it): one query, whatever the number of sign-ins. Who may be told of a request
 * waiting for them (lib/server/events/mail-recipients.ts).
 */
export async function signedInPeople(db: Db): Promise<{ email: string; role: Role }[]> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("sessions")
        .select([
          "user_email",
          "user_role",
          sql<number>`row_number() over (partition by user_email order by started_at desc, id desc)`.as("newest"),
        ])
        .as("s"),
    )
    .select(["user_email", "user_role"])
    .where("newest", "=", 1)
    .execute();
  return rows.flatMap((r) => (isRole(r.user_role) ? [{ email: r.user_email, role: r.user_role }] : []));
}
