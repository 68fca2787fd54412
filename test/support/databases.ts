import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { createDb, type Db, type DbConfig } from "@/lib/server/db";
import type { Database } from "@/lib/server/db/schema";

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

/** A fresh database on the run's throwaway PostgreSQL cluster (test/support/postgres.ts). */
export const postgres: Backend = {
  name: "PostgreSQL",
  async open() {
    const provided = inject("postgres");
    // No server is a failure, never a skip: npm test installs PostgreSQL so this half always runs.
    if ("error" in provided) throw new Error(`PostgreSQL is unavailable for the database tests: ${provided.error}`);
    const name = `db_test_${randomBytes(6).toString("hex")}`;
    const admin = new Client({ connectionString: provided.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(provided.url);
    url.pathname = `/${name}`;
    return {
      config: { kind: "postgres", url: url.toString() },
      async drop() {
        const client = new Client({ connectionString: provided.url });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
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
