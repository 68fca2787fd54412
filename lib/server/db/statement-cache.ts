import "server-only";
import type { Database as SQLiteDatabase, Statement } from "better-sqlite3";

/**
 * better-sqlite3 behind a cache of prepared statements, keyed by their SQL. Kysely prepares
 * every query anew, and the journal runs the same few statements on every create: preparing
 * them costs about 0.1 ms a create, some 7% of what the back end adds to one
 * (`npm run bench:proxy`). Bounded: an `in (...)` list makes a new text per length.
 */
export function withStatementCache(database: SQLiteDatabase, max = 500) {
  const statements = new Map<string, Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): Statement {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= max) statements.clear();
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
