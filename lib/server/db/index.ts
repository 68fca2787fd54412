import "server-only";
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { log } from "../ops/log";
import { migrateToLatest } from "./migrations";
import { withStatementCache } from "./statement-cache";
import type { Database } from "./schema";

export type { Database, JournalTable } from "./schema";
export { migrateToLatest, pendingMigrations } from "./migrations";

export type Db = Kysely<Database>;

export type DbConfig =
  /** An embedded SQLite file (the default: `${DATA_DIR}/dashboard.db`). */
  | { kind: "sqlite"; file: string }
  /** A PostgreSQL server; `max` is the pool size. */
  | { kind: "postgres"; url: string; max?: number };

/** DATABASE_URL=postgres://... selects PostgreSQL; otherwise SQLite under DATA_DIR. */
export function dbConfigFromEnv(env: { DATABASE_URL?: string; DATA_DIR?: string }): DbConfig {
  if (env.DATABASE_URL) return { kind: "postgres", url: env.DATABASE_URL };
  return { kind: "sqlite", file: path.join(env.DATA_DIR ?? "./data", "dashboard.db") };
}

/** Opens the database and runs the migrations; the caller owns it and calls `destroy()`. */
export async function createDb(config: DbConfig): Promise<Db> {
  const db = new Kysely<Database>({ dialect: await dialectFor(config) });
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

async function dialectFor(config: DbConfig) {
  if (config.kind === "postgres") {
    // Loaded on demand: a SQLite deployment never needs pg, and a PostgreSQL one never loads the native addon.
    const { Pool } = await import("pg");
    const pool = new Pool({ connectionString: config.url, max: config.max ?? 10 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    // The message is logged alone: the URL may carry a password.
    pool.on("error", (error) => log.error({ err: error }, "journal database: idle connection lost"));
    return new PostgresDialect({ pool });
  }
  const { default: SQLite } = await import("better-sqlite3");
  mkdirSync(path.dirname(path.resolve(config.file)), { recursive: true });
  // Session ids and the audit trail: owner only. SQLite gives its -wal and -shm files the same mode.
  if (config.file !== ":memory:") {
    closeSync(openSync(config.file, "a", 0o600));
    chmodSync(config.file, 0o600);
  }
  const database = new SQLite(config.file);
  // WAL: readers never block the writer; NORMAL sync in WAL still survives a killed process.
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  // Two processes on one file (dev server and a script) wait for each other instead of failing.
  database.pragma("busy_timeout = 5000");
  return new SqliteDialect({ database: withStatementCache(database) });
}

/** SQLite's SQLITE_CONSTRAINT_UNIQUE (or PRIMARYKEY), PostgreSQL's unique_violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}
