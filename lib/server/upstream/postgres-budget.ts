import "server-only";
import { sql } from "kysely";
import type { Db } from "../db";
import type { BudgetStore } from "./budget-store";
import type { BudgetClass } from "./errors";
import type { Pace } from "./pace";

/**
 * The budget's schedules and its lockout in PostgreSQL, so that several instances share one
 * budget rather than each spending its own, and a 429 met by one holds them all. One row per
 * class holds the GCRA schedule, one the lockout's end (ms since the epoch, on the database's
 * clock, which every instance shares); each reservation is one atomic statement, which
 * PostgreSQL serialises on the row, and refuses while the lockout holds.
 *
 * The table is made here rather than by a migration: it holds nothing worth keeping (UNLOGGED,
 * lost on a crash, which only resets the schedules) and exists on PostgreSQL only.
 */
export async function postgresBudgetStore(db: Db): Promise<BudgetStore> {
  // Two instances starting at once would collide in the catalog even with IF NOT EXISTS: one at a time.
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('upstream_budget'))`.execute(trx);
    await sql`CREATE UNLOGGED TABLE IF NOT EXISTS upstream_budget (key text PRIMARY KEY, tat double precision NOT NULL)`.execute(
      trx,
    );
  });

  const now = sql<number>`(extract(epoch from statement_timestamp()) * 1000)`;
  return {
    async reserve(key: BudgetClass, pace: Pace, maxWaitMs: number) {
      const tau = (pace.burst - 1) * pace.intervalMs;
      const start = sql<number>`greatest(b.tat, ${now})`;
      // Nothing is reserved while the lockout holds: the INSERT selects no row, the UPDATE's WHERE fails.
      const { rows } = await sql<{ wait: number | null; locked_until: number | null }>`
        WITH lockout AS (SELECT tat AS until FROM upstream_budget WHERE key = ${LOCKOUT_KEY} AND tat > ${now}),
        slot AS (
          INSERT INTO upstream_budget AS b (key, tat)
            SELECT ${key}, ${now} + ${pace.intervalMs}::float8 WHERE NOT EXISTS (SELECT 1 FROM lockout)
          ON CONFLICT (key) DO UPDATE SET tat = ${start} + ${pace.intervalMs}::float8
            WHERE ${start} - ${tau}::float8 - ${now} <= ${maxWaitMs}::float8 AND NOT EXISTS (SELECT 1 FROM lockout)
          RETURNING greatest(0, b.tat - ${pace.intervalMs}::float8 - ${tau}::float8 - ${now}) AS wait
        )
        SELECT (SELECT wait FROM slot) AS wait, (SELECT until FROM lockout) AS locked_until`.execute(db);
      const row = rows[0];
      if (row?.locked_until != null) return { lockedUntil: Number(row.locked_until) };
      return row?.wait != null ? Number(row.wait) : null;
    },

    async lockOut(ms: number) {
      const { rows } = await sql<{ until: number }>`
        INSERT INTO upstream_budget AS b (key, tat) VALUES (${LOCKOUT_KEY}, ${now} + ${ms}::float8)
        ON CONFLICT (key) DO UPDATE SET tat = greatest(b.tat, excluded.tat)
        RETURNING b.tat AS until`.execute(db);
      return Number(rows[0]!.until);
    },

    async lockedUntil() {
      const { rows } = await sql<{ until: number }>`
        SELECT tat AS until FROM upstream_budget WHERE key = ${LOCKOUT_KEY} AND tat > ${now}`.execute(db);
      return rows[0] ? Number(rows[0].until) : 0;
    },
  };
}

/** The row holding the lockout's end, beside the classes' schedules. */
const LOCKOUT_KEY = "lockout";
