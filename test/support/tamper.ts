import path from "node:path";

/**
 * The app's database opened directly, as someone holding its credentials (or its file) would:
 * the attacker of the audit trail's tests. Statements use `?` placeholders on both engines.
 */
export interface RawDatabase {
  run(statement: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

const AUDIT_TABLES = ["audit", "audit_head", "audit_checkpoint"];

export async function openAppDatabase(target: {
  env: Record<string, string>;
  app: { dataDir: string };
}): Promise<RawDatabase> {
  if (target.env.DATABASE_URL) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: target.env.DATABASE_URL });
    await client.connect();
    return {
      async run(statement, params = []) {
        let n = 0;
        const res = await client.query(
          statement.replace(/\?/g, () => `$${++n}`),
          params,
        );
        return res.rows;
      },
      close: () => client.end(),
    };
  }
  const { default: SQLite } = await import("better-sqlite3");
  const db = new SQLite(path.join(target.app.dataDir, "dashboard.db"));
  db.pragma("busy_timeout = 5000");
  return {
    async run(statement, params = []) {
      const prepared = db.prepare(statement);
      if (prepared.reader) return prepared.all(...params) as Record<string, unknown>[];
      prepared.run(...params);
      return [];
    },
    close: async () => void db.close(),
  };
}

/** Switches off whatever triggers guard the audit tables, as their owner may. */
export async function disableAuditTriggers(db: RawDatabase, postgres: boolean): Promise<void> {
  if (postgres) {
    const tables = await db.run(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename IN (${AUDIT_TABLES.map(() => "?").join(",")})`,
      AUDIT_TABLES,
    );
    for (const t of tables) await db.run(`ALTER TABLE ${String(t.name)} DISABLE TRIGGER USER`);
    return;
  }
  const triggers = await db.run(
    `SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (${AUDIT_TABLES.map(() => "?").join(",")})`,
    AUDIT_TABLES,
  );
  for (const t of triggers) await db.run(`DROP TRIGGER "${String(t.name)}"`);
}
