/**
 * `npm run audit:verify`: walks the audit chain of the database the dashboard is configured
 * with (DATABASE_URL, or SQLite under DATA_DIR) and its key (AUDIT_SECRET, or the one kept in
 * DATA_DIR), as GET /api/audit/verify does, the checkpoints included (the table, and
 * DATA_DIR/audit-checkpoint: run it where the dashboard's DATA_DIR is). Prints {"ok", "entries"}
 * (and the first broken entry); exits 1 when the chain is broken or ends short. It only reads: the
 * server's verification (GET /api/audit/verify) is the one that records `audit.verify_failed`.
 */
import { auditCheckpointFile, createAuditTrail } from "@/lib/server/audit-trail";
import { createDb, dbConfigFromEnv } from "@/lib/server/db";
import { parseEnv } from "@/lib/server/env-schema";
import { keptSecret } from "@/lib/server/secrets";

async function main() {
  const env = parseEnv(process.env);
  const db = await createDb(dbConfigFromEnv(env));
  try {
    const key = keptSecret(env.DATA_DIR, "audit-key", env.AUDIT_SECRET);
    const trail = createAuditTrail(db, key, { checkpointFile: auditCheckpointFile(env.DATA_DIR) });
    const result = await trail.verify();
    console.log(JSON.stringify(result));
    process.exitCode = result.ok ? 0 : 1;
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
