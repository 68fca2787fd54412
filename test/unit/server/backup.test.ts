import { spawn } from "node:child_process";
import { once } from "node:events";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BackupRefused, databaseInUse, readBackup, restoreBackup, takeBackup } from "@/lib/server/ops/backup";
import { createDb } from "@/lib/server/db";
import { knownMigrations } from "@/lib/server/db/migrations";

/**
 * Backups of DATA_DIR against real SQLite files: the copy is one moment of a database another
 * process is writing, the manifest says what is in it, and a restore refuses what would lose or
 * mix data (the dashboard running there, data already there, a damaged or newer backup).
 */

let root: string;
let dataDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "backup-unit-"));
  dataDir = join(root, "data");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A DATA_DIR as the dashboard leaves it: a migrated dashboard.db (WAL), a sandbox.db and the two secrets. */
async function seedDataDir(dir = dataDir, rows = 3) {
  mkdirSync(dir, { recursive: true });
  const db = await createDb({ kind: "sqlite", file: join(dir, "dashboard.db") });
  await db.destroy();
  const sandbox = new SQLite(join(dir, "sandbox.db"));
  sandbox.pragma("journal_mode = WAL");
  sandbox.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, note TEXT)");
  for (let i = 0; i < rows; i++) sandbox.prepare("INSERT INTO orders (note) VALUES (?)").run(`order ${i}`);
  sandbox.close();
  writeFileSync(join(dir, "auth-secret"), "auth-secret-value", { mode: 0o600 });
  writeFileSync(join(dir, "audit-key"), "audit-key-value", { mode: 0o600 });
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const mode = (file: string) => statSync(file).mode & 0o777;
const count = (file: string, table: string) => {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

/**
 * Another process writing pairs of rows, one pair per transaction, until its stdin closes; it
 * prints "writing" once the first pair is in and its final count when it stops.
 */
function startWriter(file: string) {
  const script = `
    const SQLite = require(${JSON.stringify(require.resolve("better-sqlite3"))});
    const db = new SQLite(${JSON.stringify(file)});
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE IF NOT EXISTS debits (n INTEGER); CREATE TABLE IF NOT EXISTS credits (n INTEGER)");
    const pair = db.transaction((n) => {
      db.prepare("INSERT INTO debits VALUES (?)").run(n);
      db.prepare("INSERT INTO credits VALUES (?)").run(n);
    });
    let n = 0, stop = false;
    process.stdin.on("end", () => (stop = true)).resume();
    (function write() {
      for (let i = 0; i < 50; i++) pair(++n);
      if (n === 50) console.log("writing");
      if (stop) { db.close(); console.log("wrote " + n); return; }
      setImmediate(write);
    })();`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const next = () => once(lines, "line").then(([line]) => line as string);
  return {
    started: next(),
    async stop() {
      const last = next();
      child.stdin!.end();
      const line = await last;
      await once(child, "exit");
      return Number(line.replace("wrote ", ""));
    },
  };
}

describe("takeBackup", () => {
  it("copies a database another process keeps writing as one moment of it", async () => {
    await seedDataDir();
    const writer = startWriter(join(dataDir, "dashboard.db"));
    expect(await writer.started).toBe("writing");
    const target = join(root, "backup");
    await takeBackup({ dataDir, target, postgres: false });
    const written = await writer.stop();

    const copy = join(target, "dashboard.db");
    const debits = count(copy, "debits");
    // Never half a transaction: every debit with its credit.
    expect(count(copy, "credits")).toBe(debits);
    expect(debits).toBeGreaterThanOrEqual(50);
    // Taken while the writer went on: the copy is a moment, the live file moved past it.
    expect(written).toBeGreaterThan(debits);
    const check = new SQLite(copy, { readonly: true });
    expect(check.pragma("integrity_check", { simple: true })).toBe("ok");
    // One self-contained file: no -wal beside it.
    expect(check.pragma("journal_mode", { simple: true })).toBe("delete");
    check.close();
    expect(existsSync(`${copy}-wal`)).toBe(false);
  });

  it("writes a manifest of every file (size, sha256), the migration level, readable by the owner only", async () => {
    await seedDataDir();
    const target = join(root, "backup");
    const manifest = await takeBackup({ dataDir, target, postgres: false });
    expect(manifest).toMatchObject({ format: 1, database: "sqlite", migration: knownMigrations().at(-1) });
    expect(manifest.files.map((f) => f.name)).toEqual(["dashboard.db", "sandbox.db", "auth-secret", "audit-key"]);
    for (const file of manifest.files) {
      const path = join(target, file.name);
      expect(file).toEqual({ name: file.name, bytes: statSync(path).size, sha256: sha256(path) });
      expect(mode(path), file.name).toBe(0o600);
    }
    expect(readFileSync(join(target, "auth-secret"), "utf8")).toBe("auth-secret-value");
    expect(JSON.parse(readFileSync(join(target, "manifest.json"), "utf8"))).toEqual(manifest);
    expect(mode(join(target, "manifest.json"))).toBe(0o600);
    expect(mode(target)).toBe(0o700);
    expect(count(join(target, "sandbox.db"), "orders")).toBe(3);
  });

  it("leaves out what is not there: the dashboard's tables with PostgreSQL, secrets given in the environment", async () => {
    await seedDataDir();
    rmSync(join(dataDir, "dashboard.db"));
    rmSync(join(dataDir, "audit-key"));
    const manifest = await takeBackup({ dataDir, target: join(root, "backup"), postgres: true });
    expect(manifest).toMatchObject({ database: "postgres", migration: null });
    expect(manifest.files.map((f) => f.name)).toEqual(["sandbox.db", "auth-secret"]);
  });

  it("refuses a target that is not empty, and a DATA_DIR without the dashboard's database", async () => {
    await seedDataDir();
    const target = join(root, "backup");
    mkdirSync(target);
    writeFileSync(join(target, "other"), "x");
    await expect(takeBackup({ dataDir, target, postgres: false })).rejects.toThrow(/is not empty/);
    await expect(
      takeBackup({ dataDir: join(root, "nowhere"), target: join(root, "b2"), postgres: false }),
    ).rejects.toThrow(/dashboard\.db does not exist/);
  });
});

describe("restoreBackup", () => {
  let backup: string;
  beforeEach(async () => {
    await seedDataDir(join(root, "source"), 5);
    backup = join(root, "backup");
    await takeBackup({ dataDir: join(root, "source"), target: backup, postgres: false });
  });
  const restore = (options: { force?: boolean; postgres?: boolean } = {}) =>
    restoreBackup({ source: backup, dataDir, force: options.force ?? false, postgres: options.postgres ?? false });

  it("puts every file back into an empty DATA_DIR, owner only, and the dashboard opens it", async () => {
    const manifest = restore();
    for (const file of manifest.files) {
      expect(sha256(join(dataDir, file.name)), file.name).toBe(file.sha256);
      expect(mode(join(dataDir, file.name)), file.name).toBe(0o600);
    }
    const db = await createDb({ kind: "sqlite", file: join(dataDir, "dashboard.db") });
    await db.destroy();
    expect(count(join(dataDir, "sandbox.db"), "orders")).toBe(5);
  });

  it("refuses while the dashboard has DATA_DIR's database open, idle or not, and goes ahead once it is closed", async () => {
    await seedDataDir(dataDir, 1);
    const running = await createDb({ kind: "sqlite", file: join(dataDir, "dashboard.db") });
    expect(databaseInUse(join(dataDir, "dashboard.db"))).toBe(true);
    expect(() => restore({ force: true })).toThrow(/The dashboard is running on .*dashboard\.db open.*stop it/);
    expect(count(join(dataDir, "sandbox.db"), "orders")).toBe(1);
    await running.destroy();
    expect(databaseInUse(join(dataDir, "dashboard.db"))).toBe(false);
    restore({ force: true });
    expect(count(join(dataDir, "sandbox.db"), "orders")).toBe(5);
  });

  it("refuses a DATA_DIR that holds data; with --force it holds exactly the backup, no stale -wal replayed", async () => {
    await seedDataDir(dataDir, 1);
    // A killed dashboard's leftovers: a -wal with rows the backup never had (kept aside, as a
    // clean close folds it into the database and removes it).
    const stale = new SQLite(join(dataDir, "sandbox.db"));
    stale.pragma("journal_mode = WAL");
    for (let i = 0; i < 20; i++) stale.prepare("INSERT INTO orders (note) VALUES ('stale')").run();
    const copy = join(root, "leftover-wal");
    writeFileSync(copy, readFileSync(join(dataDir, "sandbox.db-wal")));
    stale.close();
    writeFileSync(join(dataDir, "sandbox.db-wal"), readFileSync(copy));
    writeFileSync(join(dataDir, "audit-key"), "another key");

    expect(() => restore()).toThrow(
      /already holds data \(dashboard\.db, sandbox\.db, auth-secret, audit-key\).*--force/,
    );
    expect(readFileSync(join(dataDir, "audit-key"), "utf8")).toBe("another key");

    restore({ force: true });
    expect(existsSync(join(dataDir, "sandbox.db-wal"))).toBe(false);
    // Opened as the sandbox opens it (WAL): a -wal left beside it would be read into it here.
    const opened = new SQLite(join(dataDir, "sandbox.db"));
    opened.pragma("journal_mode = WAL");
    expect(opened.prepare("SELECT count(*) AS n FROM orders").get()).toEqual({ n: 5 });
    opened.close();
    expect(readFileSync(join(dataDir, "audit-key"), "utf8")).toBe("audit-key-value");
  });

  it("with --force removes what the backup does not hold, so nothing old is mixed in", async () => {
    rmSync(join(backup, "sandbox.db"));
    const manifest = JSON.parse(readFileSync(join(backup, "manifest.json"), "utf8"));
    manifest.files = manifest.files.filter((f: { name: string }) => f.name !== "sandbox.db");
    writeFileSync(join(backup, "manifest.json"), JSON.stringify(manifest));
    await seedDataDir(dataDir, 1);
    restore({ force: true });
    expect(existsSync(join(dataDir, "sandbox.db"))).toBe(false);
    expect(existsSync(join(dataDir, "dashboard.db"))).toBe(true);
  });

  it("refuses a damaged or incomplete backup, and touches nothing", () => {
    const file = join(backup, "dashboard.db");
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    writeFileSync(file, bytes);
    expect(() => restore()).toThrow(/is damaged: dashboard\.db/);
    rmSync(join(backup, "manifest.json"));
    expect(() => restore()).toThrow(BackupRefused);
    expect(() => restore()).toThrow(/not a complete backup/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("refuses a backup from a newer build, and an embedded backup when DATABASE_URL is set", () => {
    expect(() => restore({ postgres: true })).toThrow(/DATABASE_URL is set/);
    const manifest = readBackup(backup);
    writeFileSync(join(backup, "manifest.json"), JSON.stringify({ ...manifest, migration: "9999_from_the_future" }));
    expect(() => restore()).toThrow(/migration 9999_from_the_future, which this build does not know/);
    expect(existsSync(dataDir)).toBe(false);
  });
});
