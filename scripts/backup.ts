/**
 * `npm run backup -- <dir>`: a consistent copy of the dashboard's embedded databases (SQLite's
 * online backup API, while the dashboard runs), the secrets it generated, and a manifest, in a
 * new directory. Reads DATA_DIR and DATABASE_URL as the dashboard does; with PostgreSQL the
 * dashboard's tables are dumped with pg_dump instead (docs/operations.md: "Backups").
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { BackupRefused, takeBackup } from "@/lib/server/ops/backup";
import { parseEnv } from "@/lib/server/env-schema";

async function main() {
  const { positionals } = parseArgs({ allowPositionals: true });
  if (positionals.length !== 1) throw new BackupRefused("Usage: npm run backup -- <new directory>");
  const env = parseEnv(process.env);
  const postgres = Boolean(env.DATABASE_URL);
  const manifest = await takeBackup({ dataDir: env.DATA_DIR, target: positionals[0]!, postgres });
  for (const file of manifest.files) console.log(`${file.name.padEnd(14)} ${file.bytes} bytes  sha256 ${file.sha256}`);
  console.log(`backup of ${resolve(env.DATA_DIR)} written to ${resolve(positionals[0]!)} (${manifest.finished_at})`);
  if (manifest.migration) console.log(`dashboard.db at migration ${manifest.migration}`);
  if (postgres)
    console.log("The dashboard's tables are in PostgreSQL: dump them with pg_dump (docs/operations.md: Backups).");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
