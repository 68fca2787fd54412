import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startApp, type AppServer } from "../../support/app-server";
import {
  eventually,
  newRef,
  SETTLEMENT,
  smallOrder,
  TRADING,
  TREASURY,
  type Client,
  type JournalItem,
} from "../../support/dashboard";
import { sandboxClient } from "../../support/sandbox-server";

/**
 * `npm run backup` while the built dashboard takes a burst of creates over HTTP, then
 * `npm run restore` into a fresh DATA_DIR and the dashboard started on it: the audit chain
 * verifies, what was answered before the backup began is there (journal, orders, approvals and
 * their decisions), journal and sandbox agree, and a session signed in before the backup still
 * works. A restore over the running dashboard, or over data, is refused.
 */

interface Answered {
  ref: string;
  status: number;
  id?: string;
  at: number;
}

/** `npm run <script> -- <args>` with DATA_DIR (and the rest of the environment) as given. */
function npmRun(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const bigTransfer = (ref: string, amount: string) => ({
  from_profile_id: TREASURY,
  to_profile_id: SETTLEMENT,
  asset: "USD",
  amount,
  ref_id: ref,
});

let app: AppServer;
let restored: AppServer | undefined;
let root: string;
let backupDir: string;
let freshDir: string;
// The clients follow `target` from the running dashboard to the restored one, cookies and all.
const target = { url: "" };
const as = {} as Record<"trader" | "ops" | "approver" | "admin", Client>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "backup-it-"));
  backupDir = join(root, "backup");
  freshDir = join(root, "restored-data");
  app = await startApp();
  target.url = app.url;
  for (const role of ["trader", "ops", "approver", "admin"] as const) {
    as[role] = await signIn(target, `${role}@example.com`);
    expect(as[role].signedIn).toBe(true);
  }
});
afterAll(async () => {
  await restored?.dispose();
  await app?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

const approvals: Record<"approved" | "rejected" | "pending", string> = { approved: "", rejected: "", pending: "" };
const creates: Answered[] = [];
let backupStartedAt = 0;
let backupEndedAt = 0;

describe("backup and restore of DATA_DIR", () => {
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
    const backup = await npmRun("backup", [backupDir], { DATA_DIR: app.dataDir });
    backupEndedAt = Date.now();
    backupDone = true;
    await load;

    expect(backup.code, backup.stderr).toBe(0);
    expect(creates.every((c) => c.status === 200)).toBe(true);
    // Taken during the burst: creates were answered while it ran.
    expect(creates.filter((c) => c.at > backupStartedAt && c.at < backupEndedAt).length).toBeGreaterThan(0);
    const manifest = JSON.parse(readFileSync(join(backupDir, "manifest.json"), "utf8"));
    expect(manifest.files.map((f: { name: string }) => f.name)).toEqual([
      "dashboard.db",
      "sandbox.db",
      "auth-secret",
      "audit-key",
    ]);
    expect(manifest.migration).toMatch(/^\d{4}_/);
  }, 120_000);

  it("refuses to restore over the running dashboard's DATA_DIR, even with --force, and leaves it serving", async () => {
    const refused = await npmRun("restore", [backupDir, "--force"], { DATA_DIR: app.dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The dashboard is running on .*stop it/);
    const last = creates.at(-1)!;
    const entry = await as.admin.call("GET", `/api/activity?ref_ids=${last.ref}`);
    expect(entry.body.items).toEqual([expect.objectContaining({ status: "succeeded" })]);
  }, 60_000);

  it("restores into a fresh DATA_DIR, and refuses to restore over it again without --force", async () => {
    const done = await npmRun("restore", [backupDir], { DATA_DIR: freshDir });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/restored dashboard\.db, sandbox\.db, auth-secret, audit-key/);
    const again = await npmRun("restore", [backupDir], { DATA_DIR: freshDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds data .*--force/);
  }, 60_000);

  describe("the dashboard started on the restored DATA_DIR", () => {
    beforeAll(async () => {
      await app.stop();
      restored = await startApp({}, freshDir);
      target.url = restored.url;
    });

    it("keeps a session signed in before the backup", async () => {
      const session = await as.trader.call("GET", "/api/auth/session");
      expect(session.body).toMatchObject({ user: { email: "trader@example.com" } });
      expect((await as.trader.call("GET", "/api/approvals")).status).toBe(200);
    });

    it("passes npm run audit:verify", async () => {
      const verify = await npmRun("audit:verify", [], { DATA_DIR: freshDir });
      expect(verify.code, verify.stderr).toBe(0);
      const result = JSON.parse(verify.stdout);
      expect(result).toEqual({ ok: true, entries: expect.any(Number) });
      expect(result.entries).toBeGreaterThan(20);
    }, 60_000);

    it("has every create answered before the backup began, and the approvals with their decisions", async () => {
      const journal = await allJournal();
      const byRef = new Map(journal.map((e) => [e.ref_id, e]));
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
      const sandbox = sandboxClient(restored!.url);
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
});

/** The whole journal, page by page. */
async function allJournal(): Promise<(JournalItem & { result_id: string | null })[]> {
  const items: JournalItem[] = [];
  let cursor: string | null = null;
  do {
    const res = await as.admin.call(
      "GET",
      `/api/activity?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}
