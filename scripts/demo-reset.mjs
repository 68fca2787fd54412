// `npm run demo:reset`: the demo starts afresh. The embedded sandbox's state (orders, books,
// balances, transfers: sandbox.db) and the dashboard's (journal, approvals, sessions, audit
// trail: dashboard.db, with the trail's checkpoint) live in DATA_DIR (./data); both go, so the
// next start seeds the demo desk again. Stop the dashboard first: a running one keeps them open.
// Refused against PostgreSQL (DATABASE_URL) or a real service (SERVICE_BASE_URL): that is
// nobody's demo. The session and audit keys stay; they hold no state of the desk.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.DATA_DIR || "./data";
const refusal = process.env.DATABASE_URL
  ? "DATABASE_URL is set: this command empties only the embedded SQLite demo, never a PostgreSQL database."
  : process.env.SERVICE_BASE_URL
    ? "SERVICE_BASE_URL is set: the dashboard talks to a real service, not the demo's sandbox."
    : undefined;
if (refusal) {
  console.error(`demo:reset refused. ${refusal}`);
  process.exit(1);
}

/** The state files: both databases (with SQLite's -wal and -shm) and the audit trail's checkpoint. */
const STATE = /^(dashboard|sandbox)\.db(-wal|-shm|-journal)?$|^audit-checkpoint$/;
const removed = existsSync(dir) ? readdirSync(dir).filter((name) => STATE.test(name)) : [];
for (const name of removed) rmSync(join(dir, name), { force: true });
console.log(
  removed.length
    ? `demo:reset: removed ${removed.join(", ")} from ${dir}. The next start seeds the demo desk afresh.`
    : `demo:reset: nothing to remove in ${dir}; the next start seeds the demo desk.`,
);
