import "server-only";
import { sql } from "kysely";
import type { Db } from "../db";
import type { BudgetClass, BudgetStore, Pace } from "./limiter";

/**
 * The budget's schedules in PostgreSQL, so that several instances share one budget rather than
 * each spending its own. One row per class holds the GCRA schedule (ms since the epoch, on the
 * database's clock, which every instance shares); each reservation is one atomic upsert, which
 * PostgreSQL serialises on the row.
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
      const { rows } = await sql<{ wait: number }>`
        INSERT INTO upstream_budget AS b (key, tat) VALUES (${key}, ${now} + ${pace.intervalMs}::float8)
        ON CONFLICT (key) DO UPDATE SET tat = ${start} + ${pace.intervalMs}::float8
          WHERE ${start} - ${tau}::float8 - ${now} <= ${maxWaitMs}::float8
        RETURNING greatest(0, b.tat - ${pace.intervalMs}::float8 - ${tau}::float8 - ${now}) AS wait`.execute(db);
      return rows[0] ? Number(rows[0].wait) : null;
    },

    async holdOff(key: BudgetClass, pace: Pace, ms: number) {
      const until = sql<number>`${now} + ${ms}::float8 + ${(pace.burst - 1) * pace.intervalMs}::float8`;
      await sql`
        INSERT INTO upstream_budget AS b (key, tat) VALUES (${key}, ${until})
        ON CONFLICT (key) DO UPDATE SET tat = greatest(b.tat, ${until})`.execute(db);
    },
  };
}
