/**
 * `npm run restore -- <dir> [--force]`: puts a backup made by `npm run backup` back into DATA_DIR
 * while the dashboard is stopped. Refuses while it runs on that DATA_DIR, and when DATA_DIR
 * already holds data unless --force (then DATA_DIR holds exactly the backup).
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { BackupRefused, restoreBackup } from "@/lib/server/ops/backup";
import { parseEnv } from "@/lib/server/env-schema";

function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { force: { type: "boolean", default: false } },
  });
  if (positionals.length !== 1) throw new BackupRefused("Usage: npm run restore -- <backup directory> [--force]");
  const env = parseEnv(process.env);
  const postgres = Boolean(env.DATABASE_URL);
  const manifest = restoreBackup({ source: positionals[0]!, dataDir: env.DATA_DIR, force: values.force, postgres });
  console.log(`restored ${manifest.files.map((f) => f.name).join(", ")} into ${resolve(env.DATA_DIR)}`);
  console.log(`(backup taken ${manifest.started_at} to ${manifest.finished_at})`);
  for (const [file, variable] of [
    ["auth-secret", "NEXTAUTH_SECRET"],
    ["audit-key", "AUDIT_SECRET"],
  ] as const) {
    if (!manifest.files.some((f) => f.name === file))
      console.log(`${file} was not in DATA_DIR (${variable} was given): start with the same ${variable}.`);
  }
  if (manifest.database === "postgres")
    console.log(
      "The dashboard's tables were in PostgreSQL: restore them with pg_restore (docs/operations.md: Backups).",
    );
  console.log("Start the dashboard, then check the audit trail: npm run audit:verify");
}

try {
  main();
} catch (error: unknown) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
