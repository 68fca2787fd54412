import "server-only";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { DEFAULT_MIGRATION_TABLE } from "kysely";
import { knownMigrations } from "../db/migrations";

/**
 * Backups of DATA_DIR (`npm run backup` / `npm run restore`): its SQLite databases copied with
 * SQLite's online backup API while the dashboard runs, the secrets it generated, and a manifest.
 *
 * The databases are copied in this order: the dashboard's first, then the sandbox's. The sandbox
 * stands for the service, which is never restored and is always ahead of the dashboard's journal
 * (journal first, then send). Copied in this order the restored pair keeps that: every create the
 * journal records as sent is in the sandbox, and one left pending is reconciled with it at start.
 */
export const DATABASES = ["dashboard.db", "sandbox.db"] as const; // lib/server/db, lib/sandbox/runtime.ts
/** Generated on first start when not given (lib/server/secrets.ts): sessions and the audit chain need them. */
export const SECRETS = ["auth-secret", "audit-key"] as const;
/** lib/server/audit-trail.ts's checkpoint file: never backed up, removed by a restore. */
const AUDIT_CHECKPOINT = "audit-checkpoint";
export const MANIFEST = "manifest.json";

export interface BackupFile {
  name: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: 1;
  started_at: string;
  finished_at: string;
  /** "postgres": the dashboard's tables are in PostgreSQL (pg_dump), and dashboard.db is not here. */
  database: "sqlite" | "postgres";
  /** The newest migration dashboard.db had (null with PostgreSQL). */
  migration: string | null;
  files: BackupFile[];
}

/** A backup or restore that must not go ahead; the message says why and what to do. */
export class BackupRefused extends Error {}

// Everything in one step: one read transaction, so the copy is one moment of the database even
// while the dashboard writes (in steps, a write by another process restarts the copy).
const ALL_PAGES = 0x7fffffff;
const OWNER_ONLY = 0o600;

/** Copies DATA_DIR's databases and secrets into `target` (new or empty) and writes the manifest last. */
export async function takeBackup(options: { dataDir: string; target: string; postgres: boolean }): Promise<Manifest> {
  const { dataDir, target, postgres } = options;
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new BackupRefused(`${target} is not empty: back up into a new directory.`);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  const started = new Date();
  const databases = DATABASES.filter((name) => !(postgres && name === "dashboard.db"));
  if (!postgres && !existsSync(join(dataDir, "dashboard.db")))
    throw new BackupRefused(`${join(dataDir, "dashboard.db")} does not exist: is DATA_DIR the dashboard's?`);
  const copied: string[] = [];
  for (const name of databases) {
    if (!existsSync(join(dataDir, name))) continue; // the sandbox is off
    await copyDatabase(join(dataDir, name), join(target, name));
    copied.push(name);
  }
  for (const name of SECRETS) {
    if (!existsSync(join(dataDir, name))) continue; // given in the environment instead
    copyFileSync(join(dataDir, name), join(target, name));
    chmodSync(join(target, name), OWNER_ONLY);
    copied.push(name);
  }
  const manifest: Manifest = {
    format: 1,
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    database: postgres ? "postgres" : "sqlite",
    migration: postgres ? null : migrationOf(join(target, "dashboard.db")),
    files: copied.map((name) => describe(join(target, name), name)),
  };
  writeFileSync(join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: OWNER_ONLY });
  return manifest;
}

/** SQLite's online backup API from a read-only connection; the copy is checked and left as one file. */
async function copyDatabase(source: string, copy: string): Promise<void> {
  const db = new SQLite(source, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    await db.backup(copy, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  chmodSync(copy, OWNER_ONLY);
  const out = new SQLite(copy);
  try {
    // A single file, no -wal beside it: the restore brings it back to WAL when the app opens it.
    out.pragma("journal_mode = DELETE");
    const check = out.pragma("integrity_check", { simple: true });
    if (check !== "ok") throw new Error(`the copy of ${source} fails SQLite's integrity check: ${String(check)}`);
  } finally {
    out.close();
  }
}

function migrationOf(file: string): string | null {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT max(name) AS name FROM ${DEFAULT_MIGRATION_TABLE}`).get() as { name: string | null };
    return row.name;
  } finally {
    db.close();
  }
}

function describe(file: string, name: string): BackupFile {
  return { name, bytes: statSync(file).size, sha256: createHash("sha256").update(readFileSync(file)).digest("hex") };
}

/** The backup's manifest, after checking that every file it lists is there unchanged. */
export function readBackup(dir: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Manifest;
  } catch {
    throw new BackupRefused(`${dir} is not a complete backup: ${MANIFEST} is missing or unreadable.`);
  }
  if (manifest.format !== 1) throw new BackupRefused(`${dir}: backup format ${manifest.format} is not known here.`);
  if (manifest.database === "sqlite" && !manifest.files.some((f) => f.name === "dashboard.db"))
    throw new BackupRefused(`${dir} is not a complete backup: dashboard.db is not in its manifest.`);
  const known = new Set<string>([...DATABASES, ...SECRETS]);
  for (const file of manifest.files) {
    if (!known.has(file.name)) throw new BackupRefused(`${dir}: the manifest lists an unknown file, ${file.name}.`);
    const path = join(dir, file.name);
    if (!existsSync(path) || describe(path, file.name).sha256 !== file.sha256)
      throw new BackupRefused(`${dir} is damaged: ${file.name} is missing or differs from the manifest.`);
  }
  return manifest;
}

/**
 * True while another connection has the database open: the dashboard keeps its databases open
 * (WAL mode holds a shared lock on the file for as long as a connection lives), so an exclusive
 * lock cannot be had while it runs on this DATA_DIR, busy or idle.
 */
export function databaseInUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new SQLite(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE; COMMIT;");
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_BUSY") return true;
    throw error;
  } finally {
    db.close();
  }
}

/**
 * Puts a backup back into DATA_DIR while the dashboard is stopped. Refuses when it runs there,
 * when DATA_DIR already holds data (unless `force`: then DATA_DIR ends up holding exactly the
 * backup), and when the backup is damaged or from a newer build.
 */
export function restoreBackup(options: {
  source: string;
  dataDir: string;
  force: boolean;
  postgres: boolean;
}): Manifest {
  const { source, dataDir, force, postgres } = options;
  const manifest = readBackup(source);
  const known = knownMigrations();
  if (manifest.migration && !known.includes(manifest.migration))
    throw new BackupRefused(
      `The backup's database is at migration ${manifest.migration}, which this build does not know (its newest is ${known.at(-1)}): restore it with the build that took it, or a newer one.`,
    );
  if (manifest.database === "sqlite" && postgres)
    throw new BackupRefused(
      "The backup holds an embedded (SQLite) dashboard database, but DATABASE_URL is set: the dashboard would not read it. Unset DATABASE_URL to restore it.",
    );
  const running = DATABASES.filter((name) => databaseInUse(join(dataDir, name)));
  if (running.length > 0)
    throw new BackupRefused(
      `The dashboard is running on ${dataDir} (${running.join(", ")} open): stop it, then restore.`,
    );
  const present = [...DATABASES, ...SECRETS].filter((name) => existsSync(join(dataDir, name)));
  if (present.length > 0 && !force)
    throw new BackupRefused(
      `${dataDir} already holds data (${present.join(", ")}): restore into an empty DATA_DIR, or add --force to replace it.`,
    );

  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const restored = new Set(manifest.files.map((f) => f.name));
  for (const file of manifest.files) {
    // Copied beside the target first, then renamed over it: a crash leaves the old file or the new one.
    const staged = join(dataDir, `${file.name}.restoring`);
    copyFileSync(join(source, file.name), staged);
    chmodSync(staged, OWNER_ONLY);
    removeSidecars(join(dataDir, file.name));
    renameSync(staged, join(dataDir, file.name));
  }
  // What the backup did not hold must not stay to be mixed with it (an old sandbox, a stale secret).
  for (const name of present) {
    if (restored.has(name)) continue;
    removeSidecars(join(dataDir, name));
    rmSync(join(dataDir, name), { force: true });
  }
  // The instance's checkpoint of the audit trail remembers the replaced data's newest entry: a
  // restore rewinds the trail on purpose, and the checkpoint kept in the database takes over.
  rmSync(join(dataDir, AUDIT_CHECKPOINT), { force: true });
  return manifest;
}

/** A database's -wal and -shm belong to the old file: left beside the new one, SQLite would replay them into it. */
function removeSidecars(file: string): void {
  for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(`${file}${suffix}`, { force: true });
}
