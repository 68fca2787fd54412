import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricValue, resetDashboard, TRADING, type Dashboard, type Database } from "../../support/dashboard";
import { disableAuditTriggers, openAppDatabase } from "../../support/tamper";

/**
 * The audit trail on a running server, on both databases: a missing tail noticed by the runtime
 * that wrote it and by the next one on the same data (the lane's runtime reset onto it, as a
 * restart would be). Its route handlers (the entries, GET /api/audit and its CSV, the database
 * refusing to change an entry) are tried in process: test/routes/audit-trail.test.ts; the start
 * refused without AUDIT_SECRET beside a real service: production.test.ts.
 */

/**
 * Issue 16, finding 11: someone with write access to the database deletes the newest entries
 * and rewinds audit_head (and the checkpoint table to a copy read earlier). The instance that
 * wrote them notices, and so does the next one on the same data after a restart.
 */
describe.each<Database>(["sqlite", "postgres"])("a missing tail of the audit trail on %s", (database) => {
  let d: Dashboard;
  /** Where the app's database is, for the attacker. */
  let target: { env: Record<string, string>; app: { dataDir: string } };
  beforeAll(async () => {
    d = await resetDashboard({ database });
    target = { env: d.env, app: { dataDir: (await d.control!.state()).data_dir } };
  });
  afterAll(() => d?.dispose());

  const verify = async () => (await d.as.admin.call("GET", "/api/audit/verify")).body;
  const headGauge = () => metricValue(d.as.admin, "dashboard_audit_head_seq");
  /** Two entries each: a cancel of an order the service does not know, and its failure. */
  const work = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await d.as.admin.call("DELETE", `/api/v2/profiles/${TRADING}/orders/${crypto.randomUUID()}`);
      expect(res.status).toBe(404);
    }
  };

  it("verify fails when the newest entries are deleted and audit_head rewound, before and after a restart", async () => {
    await work(1);
    // The attacker reads the database early: the trail's end, and the checkpoint row if there is one.
    let db = await openAppDatabase(target);
    const kept = Number((await db.run("SELECT max(seq) AS n FROM audit"))[0]!.n);
    const checkpoint = await db.run("SELECT * FROM audit_checkpoint").catch(() => []);
    await db.close();

    await work(3);
    const whole = await verify();
    expect(whole).toMatchObject({ ok: true });
    expect(whole.entries).toBeGreaterThanOrEqual(kept + 6);
    expect(await headGauge()).toBe(whole.entries);

    db = await openAppDatabase(target);
    try {
      await disableAuditTriggers(db, database === "postgres");
      await db.run("DELETE FROM audit WHERE seq > ?", [kept]);
      const [last] = await db.run("SELECT seq, hash FROM audit WHERE seq = ?", [kept]);
      await db.run("UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1", [kept, last!.hash]);
      for (const row of checkpoint) {
        const columns = Object.keys(row).filter((c) => c !== "id");
        await db.run(`UPDATE audit_checkpoint SET ${columns.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`, [
          ...columns.map((c) => row[c]),
          row.id,
        ]);
      }
    } finally {
      await db.close();
    }

    const cut = await verify();
    expect(cut).toMatchObject({ ok: false, broken: { seq: kept + 1 } });
    expect(cut.entries).toBe(kept);
    expect(cut.broken.reason).toMatch(/missing/);
    expect(await headGauge()).toBe(kept);

    // The next runtime on the same data: none of the one before's memory.
    await d.control!.reset({ ...d.env, DATA_DIR: target.app.dataDir });
    expect(await verify()).toMatchObject({ ok: false, entries: kept, broken: { seq: kept + 1 } });
  });
});
