import "server-only";
import { PostgresAdapter, sql, type Kysely } from "kysely";
import type { Database } from "./schema";
import type { Db } from "./index";

/**
 * One person's creates, one at a time: `fn` reads that person's totals and writes the journal
 * entry (or the held request) as one atomic step, so ten parallel orders cannot all fit under
 * a limit that leaves room for three.
 *
 * - PostgreSQL, across instances: a transaction holding an advisory lock on the person's email
 *   (`pg_advisory_xact_lock`, released at commit or rollback). The two-key form keeps these locks
 *   apart from the one-key locks elsewhere (the watcher's leader, the upstream budget).
 * - SQLite: `BEGIN IMMEDIATE` on the one connection, which Kysely lends to one caller at a time
 *   (every caller in this process waits its turn) and which takes the database's write lock at
 *   once (another process on the same file waits for it, busy_timeout).
 *
 * `fn` must use the handle it is given for every query, and must not call the service: the
 * lock is held only for the database's part.
 */
export const inPersonLock = <T>(db: Db, email: string, fn: (tx: Kysely<Database>) => Promise<T>): Promise<T> =>
  inKeyedLock(db, PERSON_LOCK_SPACE, email.toLowerCase(), fn);

/**
 * The same one-at-a-time step for anything else named by `key` in its own `space` (a number no
 * other lock's first key is): `fn` runs in a transaction that holds the lock until it ends.
 */
export async function inKeyedLock<T>(
  db: Db,
  space: number,
  key: string,
  fn: (tx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(${space}, hashtext(${key}))`.execute(tx);
      return fn(tx);
    });
  }
  return db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (error) {
      await sql`ROLLBACK`.execute(conn);
      throw error;
    }
  });
}

/** The first key of the two-key advisory locks this module takes: "controls" in a number. */
const PERSON_LOCK_SPACE = 16_016;
