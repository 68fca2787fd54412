import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp } from "../../support/app-server";
import { metricValue, startDashboard, TRADING, type OwnDashboard, type Database } from "../../support/dashboard";
import { startFaultProxy } from "../../support/fault-proxy";
import { disableAuditTriggers, openAppDatabase } from "../../support/tamper";

/**
 * The audit trail where the process itself is under test, on both databases: a missing tail
 * noticed by the instance that wrote it and by the next one after a restart, and the process
 * refusing to start without AUDIT_SECRET. Its route handlers (the entries, GET /api/audit and
 * its CSV, the database refusing to change an entry) are tried in process:
 * test/routes/audit-trail.test.ts.
 */

/**
 * Issue 16, finding 11: someone with write access to the database deletes the newest entries
 * and rewinds audit_head (and the checkpoint table to a copy read earlier). The instance that
 * wrote them notices, and so does the next one on the same data after a restart.
 */
describe.each<Database>(["sqlite", "postgres"])("a missing tail of the audit trail on %s", (database) => {
  let d: OwnDashboard;
  beforeAll(async () => {
    // Its own server, not the shared one: it is restarted on the same data.
    d = await startDashboard({ database });
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
    let db = await openAppDatabase(d);
    const kept = Number((await db.run("SELECT max(seq) AS n FROM audit"))[0]!.n);
    const checkpoint = await db.run("SELECT * FROM audit_checkpoint").catch(() => []);
    await db.close();

    await work(3);
    const whole = await verify();
    expect(whole).toMatchObject({ ok: true });
    expect(whole.entries).toBeGreaterThanOrEqual(kept + 6);
    expect(await headGauge()).toBe(whole.entries);

    db = await openAppDatabase(d);
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

    await d.restart();
    expect(await verify()).toMatchObject({ ok: false, entries: kept, broken: { seq: kept + 1 } });
  });
});

describe("against a real service", () => {
  it("the dashboard refuses to start without AUDIT_SECRET, naming it", async () => {
    const proxy = await startFaultProxy();
    try {
      const { AUDIT_SECRET: _, ...env } = proxy.env();
      const started = await startApp(env).catch((error: unknown) => error);
      if (!(started instanceof Error)) await (started as Awaited<ReturnType<typeof startApp>>).dispose();
      expect(started).toBeInstanceOf(Error);
      expect((started as Error).message).toMatch(/AUDIT_SECRET: AUDIT_SECRET is required/);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
