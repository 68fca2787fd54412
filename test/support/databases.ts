import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { createDb, type Db, type DbConfig } from "@/lib/server/db";
import type { Database } from "@/lib/server/db/schema";
import { adminQuery, withDatabase } from "./postgres";

/** A database of one backend for one suite, and how to throw it away. */
export interface Backend {
  name: string;
  open(): Promise<{ config: DbConfig; drop(): Promise<void> }>;
}

export const sqlite: Backend = {
  name: "SQLite",
  async open() {
    const dir = mkdtempSync(path.join(tmpdir(), "db-test-"));
    // A directory that does not exist yet: createDb makes it.
    return {
      config: { kind: "sqlite", file: path.join(dir, "nested", "dashboard.db") },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/**
 * A fresh database on the run's throwaway PostgreSQL cluster (test/support/postgres.ts): empty, as
 * a new deployment's, or `migrated` (a copy of the cluster's migrated database: no records, the
 * schema there already). Its URL. Throws (so the test FAILS, never skips) when PostgreSQL is
 * missing: npm test installs it, so the PostgreSQL halves always run.
 */
export async function freshPostgresDatabase({ migrated = false } = {}): Promise<string> {
  const provided = inject("postgres");
  if ("error" in provided) throw new Error(`PostgreSQL is required for this test: ${provided.error}`);
  const name = `db_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(provided.url, `CREATE DATABASE ${name}${migrated ? ` TEMPLATE ${provided.migrated}` : ""}`);
  return withDatabase(provided.url, name);
}

/** A copy of the migrated database for each suite: createDb finds nothing left to migrate. */
export const postgres: Backend = {
  name: "PostgreSQL",
  async open() {
    const url = await freshPostgresDatabase({ migrated: true });
    const { url: admin } = inject("postgres") as { url: string };
    const name = new URL(url).pathname.slice(1);
    return {
      config: { kind: "postgres", url },
      drop: () => adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  },
};

/**
 * A migrated database of `backend` for one suite, emptied of `tables` before each test. A
 * backend that cannot open fails every test (thrown in beforeEach), never skips them.
 */
export function suiteDatabase(backend: Backend, tables: readonly (keyof Database)[]): { db: Db; config: DbConfig } {
  const suite = {} as { db: Db; config: DbConfig };
  let drop: (() => Promise<void>) | undefined;
  let unavailable: unknown;
  beforeAll(async () => {
    try {
      const opened = await backend.open();
      drop = opened.drop;
      suite.config = opened.config;
      suite.db = await createDb(opened.config);
    } catch (error) {
      unavailable = error;
    }
  });
  afterAll(async () => {
    await suite.db?.destroy();
    await drop?.();
  });
  beforeEach(async () => {
    if (unavailable) throw unavailable;
    for (const table of tables) await suite.db.deleteFrom(table).execute();
  });
  return suite;
}
