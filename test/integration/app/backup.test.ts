import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../../support/app-server";
import {
  eventually,
  newRef,
  SETTLEMENT,
  smallOrder,
  TRADING,
  TREASURY,
  type Client,
  type Database,
  type JournalItem,
} from "../../support/dashboard";
import { freshPostgresDatabase } from "../../support/databases";
import { findPostgresBin } from "../../support/postgres";
import { sandboxClient } from "../../support/sandbox-server";
import { resetApp, type SharedApp } from "../../support/shared-app";

/**
 * A backup taken while the built dashboard (the lane's app) takes a burst of creates over HTTP,
 * restored into a fresh DATA_DIR (and, on PostgreSQL, a fresh database) and the dashboard started
 * on it (the lane's runtime reset onto it, as a restart on that data would): the
 * audit chain verifies, what was answered before the backup began is there (journal, orders,
 * approvals and their decisions), journal and sandbox agree, and a session signed in before the
 * backup still works. A restore over the running dashboard, or over data, is refused.
 *
 * SQLite: `npm run backup` / `npm run restore`. PostgreSQL: the README's pg_dump / pg_restore for
 * the dashboard's tables (first, as the journal comes before the service), then the same scripts
 * for the sandbox and the secrets; with an append-only trigger on the audit table, as migration
 * 0009 adds, which pg_restore creates only after the rows are in.
 */

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `npm run <script> -- <args>`, the way the README says to run it. */
const npmRun = (script: string, args: string[], env: Record<string, string>) =>
  run("npm", ["run", "--silent", script, "--", ...args], env);

/** One of PostgreSQL's client programs; fails the test with its output when it fails. */
async function pgTool(tool: string, args: string[]) {
  const result = await run(join(findPostgresBin(), tool), args);
  expect(result.code, `${tool}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

async function sql(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

// What migration 0009 gives the audit table, in kind: rows are never changed or removed.
const APPEND_ONLY = `
  CREATE FUNCTION backup_test_append_only() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN RAISE EXCEPTION 'the audit trail is append-only'; END $$;
  CREATE TRIGGER backup_test_append_only BEFORE UPDATE OR DELETE ON audit
    FOR EACH ROW EXECUTE FUNCTION backup_test_append_only();
  CREATE TRIGGER backup_test_no_truncate BEFORE TRUNCATE ON audit
    FOR EACH STATEMENT EXECUTE FUNCTION backup_test_append_only();`;

const bigTransfer = (ref: string, amount: string) => ({
  from_profile_id: TREASURY,
  to_profile_id: SETTLEMENT,
  asset: "USD",
  amount,
  ref_id: ref,
});

interface Answered {
  ref: string;
  status: number;
  id?: string;
  at: number;
}

describe.each<Database>(["sqlite", "postgres"])("backup and restore on %s", (database) => {
  let app: SharedApp;
  /** The running dashboard's DATA_DIR. */
  let dataDir: string;
  let root: string;
  let backupDir: string;
  let dumpFile: string;
  let freshDir: string;
  const env: Record<string, string> = {};
  const restoredEnv: Record<string, string> = {};
  // The clients keep their cookies from the running dashboard to the restored one.
  const target = { url: "" };
  const as = {} as Record<"trader" | "ops" | "approver" | "admin", Client>;
  const approvals = { approved: "", rejected: "", pending: "" };
  const creates: Answered[] = [];
  let backupStartedAt = 0;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "backup-it-"));
    backupDir = join(root, "backup");
    dumpFile = join(root, "dashboard.dump");
    freshDir = join(root, "restored-data");
    if (database === "postgres") {
      env.DATABASE_URL = await freshPostgresDatabase();
      restoredEnv.DATABASE_URL = await freshPostgresDatabase();
    }
    app = await resetApp(env);
    dataDir = (await app.control.state()).data_dir;
    if (env.DATABASE_URL) await sql(env.DATABASE_URL, APPEND_ONLY);
    target.url = app.url;
    for (const role of ["trader", "ops", "approver", "admin"] as const) {
      as[role] = await signIn(target, `${role}@example.com`);
      expect(as[role].signedIn).toBe(true);
    }
  });
  afterAll(async () => {
    // The lane's runtime leaves the restored data before it goes.
    await app?.control.reset();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** The dashboard's tables first (pg_dump, on PostgreSQL), then DATA_DIR (npm run backup). */
  async function takeBackup() {
    if (env.DATABASE_URL) await pgTool("pg_dump", ["--format=custom", `--file=${dumpFile}`, env.DATABASE_URL]);
    return npmRun("backup", [backupDir], { ...env, DATA_DIR: dataDir });
  }

  it("answers approvals, then takes a backup during a burst of creates", async () => {
    for (const [i, outcome] of (["approved", "rejected", "pending"] as const).entries()) {
      const res = await as.ops.call("POST", "/api/v2/transfer/internal", bigTransfer(newRef("held"), `${20001 + i}`));
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      approvals[outcome] = res.body.approval.id;
    }
    expect((await as.approver.call("POST", `/api/approvals/${approvals.approved}/approve`)).status).toBe(200);
    const rejected = await as.approver.call("POST", `/api/approvals/${approvals.rejected}/reject`, {
      reason: "Wrong desk",
    });
    expect(rejected.status).toBe(200);

    let backupDone = false;
    const burst = async () => {
      while (!(backupDone && creates.length >= 60)) {
        const ref = newRef("burst");
        const res = await as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
        creates.push({ ref, status: res.status, id: res.body?.id, at: Date.now() });
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, burst));
    await eventually(async () => creates.length >= 20 || undefined, 30_000, "the first creates");
    backupStartedAt = Date.now();
    const backup = await takeBackup();
    const backupEndedAt = Date.now();
    backupDone = true;
    await load;

    expect(backup.code, backup.stderr).toBe(0);
    expect(creates.every((c) => c.status === 200)).toBe(true);
    // Taken during the burst: creates were answered while it ran.
    const during = creates.filter((c) => c.at > backupStartedAt && c.at < backupEndedAt).length;
    expect(during).toBeGreaterThan(0);
    const manifest = JSON.parse(readFileSync(join(backupDir, "manifest.json"), "utf8"));
    const embedded = database === "sqlite" ? ["dashboard.db"] : [];
    expect(manifest.files.map((f: { name: string }) => f.name)).toEqual([
      ...embedded,
      "sandbox.db",
      "auth-secret",
      "audit-key",
    ]);
    expect(manifest.migration).toEqual(database === "sqlite" ? expect.stringMatching(/^\d{4}_/) : null);
    console.info(
      `${database}: backup took ${backupEndedAt - backupStartedAt} ms; ${creates.length} creates, ` +
        `${creates.filter((c) => c.at < backupStartedAt).length} answered before it began, ${during} while it ran`,
    );
  }, 120_000);

  it("refuses to restore over the running dashboard's DATA_DIR, even with --force, and leaves it serving", async () => {
    const refused = await npmRun("restore", [backupDir, "--force"], { ...env, DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The dashboard is running on .*stop it/);
    const last = creates.at(-1)!;
    const entry = await as.admin.call("GET", `/api/activity?ref_ids=${last.ref}`);
    expect(entry.body.items).toEqual([expect.objectContaining({ status: "succeeded" })]);
  }, 60_000);

  it("restores into a fresh DATA_DIR, and refuses to restore over it again without --force", async () => {
    if (restoredEnv.DATABASE_URL) {
      // The default section order: the audit table's triggers are created after its rows are in.
      const toc = (await pgTool("pg_restore", ["--list", dumpFile])).split("\n");
      const rows = toc.findIndex((line) => / TABLE DATA public audit /.test(line));
      const trigger = toc.findIndex((line) => / TRIGGER public audit backup_test_append_only /.test(line));
      expect(rows).toBeGreaterThan(-1);
      expect(trigger).toBeGreaterThan(rows);
      await pgTool("pg_restore", [
        "--exit-on-error",
        "--single-transaction",
        "--no-owner",
        `--dbname=${restoredEnv.DATABASE_URL}`,
        dumpFile,
      ]);
    }
    const done = await npmRun("restore", [backupDir], { ...restoredEnv, DATA_DIR: freshDir });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/restored (dashboard\.db, )?sandbox\.db, auth-secret, audit-key/);
    const again = await npmRun("restore", [backupDir], { ...restoredEnv, DATA_DIR: freshDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds data .*--force/);
  }, 60_000);

  describe("the dashboard started on what was restored", () => {
    beforeAll(async () => {
      await app.control.reset({ ...restoredEnv, DATA_DIR: freshDir });
    });

    it("keeps a session signed in before the backup", async () => {
      const session = await as.trader.call("GET", "/api/auth/session");
      expect(session.body).toMatchObject({ user: { email: "trader@example.com" } });
      expect((await as.trader.call("GET", "/api/approvals")).status).toBe(200);
    });

    it("passes npm run audit:verify", async () => {
      const verify = await npmRun("audit:verify", [], { ...restoredEnv, DATA_DIR: freshDir });
      expect(verify.code, verify.stderr).toBe(0);
      const result = JSON.parse(verify.stdout);
      expect(result).toEqual({ ok: true, entries: expect.any(Number) });
      expect(result.entries).toBeGreaterThan(20);
    }, 60_000);

    it("has every create answered before the backup began, and the approvals with their decisions", async () => {
      const byRef = new Map((await allJournal()).map((e) => [e.ref_id, e]));
      const before = creates.filter((c) => c.at < backupStartedAt);
      expect(before.length).toBeGreaterThanOrEqual(20);
      for (const c of before) expect(byRef.get(c.ref), c.ref).toMatchObject({ status: "succeeded", result_id: c.id });

      const approval = async (id: string) => (await as.admin.call("GET", `/api/approvals/${id}`)).body.approval;
      expect(await approval(approvals.approved)).toMatchObject({ status: "APPROVED", outcome: { status: 200 } });
      expect(await approval(approvals.rejected)).toMatchObject({ status: "REJECTED", reason: "Wrong desk" });
      expect(await approval(approvals.pending)).toMatchObject({ status: "PENDING" });
    });

    it("agrees with the restored sandbox: nothing pending, every order the journal sent is there", async () => {
      const journal = await eventually(
        async () => {
          const all = await allJournal();
          return all.some((e) => e.status === "pending") ? undefined : all;
        },
        30_000,
        "pending entries reconciled",
      );
      const orders = journal.filter((e) => e.kind === "order" && e.ref_id.startsWith("burst-"));
      const sandbox = sandboxClient(app.url);
      for (let i = 0; i < orders.length; i += 100) {
        const chunk = orders.slice(i, i + 100);
        const query = chunk.map((e) => `ref_ids=${encodeURIComponent(e.ref_id)}`).join("&");
        const found = await sandbox.call("GET", `/orders?limit=100&${query}`);
        expect(found.status).toBe(200);
        const ids = new Map(found.body.items.map((o: { ref_id: string; id: string }) => [o.ref_id, o.id]));
        for (const e of chunk) {
          if (e.status === "succeeded") expect(ids.get(e.ref_id), e.ref_id).toBe(e.result_id);
          else expect(ids.has(e.ref_id), e.ref_id).toBe(false);
        }
      }
    });
  });

  /** The whole journal, page by page. */
  async function allJournal(): Promise<JournalItem[]> {
    const items: JournalItem[] = [];
    let cursor: string | null = null;
    do {
      const page = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const res = await as.admin.call("GET", `/api/activity?limit=200${page}`);
      expect(res.status).toBe(200);
      items.push(...res.body.items);
      cursor = res.body.next_cursor;
    } while (cursor);
    return items;
  }
});
