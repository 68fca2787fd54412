import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditCheckpointFile, createAuditTrail, type AuditEvent } from "@/lib/server/audit-trail";
import { createDb, type Db } from "@/lib/server/db";
import { postgres, sqlite, type Backend } from "../../support/databases";

const KEY = "audit-key-for-tests";
const event = (n: number): AuditEvent => ({
  action: "create.requested",
  actor: { email: "ops@example.com", role: "ops" },
  ip: "127.0.0.1",
  subject: `ref-${n}`,
  detail: { kind: "transfer", request: { amount: "20000.00", asset: "USD" } },
});

describe.each([sqlite, postgres])("the audit trail on $name", (backend: Backend) => {
  // The trail refuses to be emptied: each test gets a database (and a DATA_DIR) of its own.
  let db: Db;
  let drop: () => Promise<void>;
  let dataDir: string;
  const postgresBackend = backend === postgres;
  beforeEach(async () => {
    const opened = await backend.open();
    drop = opened.drop;
    db = await createDb(opened.config);
    dataDir = mkdtempSync(path.join(tmpdir(), "audit-data-"));
  });
  afterEach(async () => {
    await db?.destroy();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** An instance's trail, as the runtime makes it: its checkpoint file in DATA_DIR. */
  const instance = (dir = dataDir, key = KEY) =>
    createAuditTrail(db, key, { checkpointFile: auditCheckpointFile(dir) });
  const appendMany = async (trail: ReturnType<typeof instance>, n: number) => {
    for (let i = 1; i <= n; i++) await trail.append(event(i));
  };

  /** What someone holding the tables' owner does: switch the triggers off (SQLite: drop them). */
  async function asOwner(run: () => Promise<void>) {
    if (postgresBackend) {
      for (const t of ["audit", "audit_head", "audit_checkpoint"])
        await sql.raw(`ALTER TABLE ${t} DISABLE TRIGGER USER`).execute(db);
    } else {
      const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger'`.execute(db);
      for (const { name } of rows) await sql.raw(`DROP TRIGGER "${name}"`).execute(db);
    }
    await run();
  }

  /** Deletes the entries after `keep` and points audit_head at entry `keep`, as an attacker would. */
  async function cutTail(keep: number) {
    await sql`DELETE FROM audit WHERE seq > ${keep}`.execute(db);
    const { rows } = await sql<{ hash: string }>`SELECT hash FROM audit WHERE seq = ${keep}`.execute(db);
    await sql`UPDATE audit_head SET seq = ${keep}, hash = ${rows[0]!.hash} WHERE id = 1`.execute(db);
  }

  it("appends entries in order, each chained to the one before, and verifies them", async () => {
    const trail = instance();
    expect(await trail.verify()).toEqual({ ok: true, entries: 0 });
    const first = await trail.append(event(1));
    const second = await trail.append(event(2));
    expect([first.seq, second.seq]).toEqual([1, 2]);
    expect(second).toMatchObject({ action: "create.requested", actor_email: "ops@example.com", subject: "ref-2" });
    expect(second.detail).toEqual(event(2).detail);
    expect(await trail.verify()).toEqual({ ok: true, entries: 2 });
  });

  it("keeps one chain when 30 entries are appended at once", async () => {
    const trail = instance();
    await Promise.all(Array.from({ length: 30 }, (_, i) => trail.append(event(i))));
    const seqs = (await db.selectFrom("audit").select("seq").orderBy("seq").execute()).map((r) => Number(r.seq));
    expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(await trail.verify()).toEqual({ ok: true, entries: 30 });
  });

  it("the database refuses UPDATE and DELETE of an entry, and any step back of the head or checkpoint", async () => {
    await appendMany(instance(), 3);
    const refused = /the audit trail is append-only/;
    await expect(sql`UPDATE audit SET detail_json = ${"{}"} WHERE seq = 2`.execute(db)).rejects.toThrow(refused);
    await expect(sql`DELETE FROM audit WHERE seq = 3`.execute(db)).rejects.toThrow(refused);
    await expect(db.deleteFrom("audit").execute()).rejects.toThrow(refused);
    await expect(sql`UPDATE audit_head SET seq = 2`.execute(db)).rejects.toThrow(refused);
    await expect(sql`DELETE FROM audit_head`.execute(db)).rejects.toThrow(refused);
    await expect(sql`UPDATE audit_checkpoint SET seq = 1`.execute(db)).rejects.toThrow(refused);
    await expect(sql`DELETE FROM audit_checkpoint`.execute(db)).rejects.toThrow(refused);
    if (postgresBackend) await expect(sql`TRUNCATE audit`.execute(db)).rejects.toThrow(refused);
    expect(await instance().verify()).toEqual({ ok: true, entries: 3 });
  });

  it("finds an edited row", async () => {
    await appendMany(instance(), 5);
    await asOwner(() => sql`update audit set detail_json = ${'{"amount":"1.00"}'} where seq = 3`.execute(db).then());
    expect(await instance().verify()).toEqual({ ok: false, entries: 2, broken: { seq: 3, reason: "entry altered" } });
  });

  it("finds a deleted row in the middle", async () => {
    await appendMany(instance(), 5);
    await asOwner(() => sql`delete from audit where seq = 2`.execute(db).then());
    expect(await instance().verify()).toMatchObject({ ok: false, broken: { seq: 2, reason: "entry missing" } });
  });

  it("finds a chain rewritten without the key", async () => {
    await appendMany(instance(), 3);
    expect(await createAuditTrail(db, "another-key").verify()).toMatchObject({ ok: false, broken: { seq: 1 } });
  });

  describe("a missing tail: the newest entries deleted and audit_head rewound (issue 16, finding 11)", () => {
    it("the instance that wrote them notices at once", async () => {
      const trail = instance();
      await appendMany(trail, 4);
      const early = await db.selectFrom("audit_checkpoint").selectAll().executeTakeFirstOrThrow();
      await appendMany(trail, 2);
      // Even with the checkpoint file gone, and the table's checkpoint put back by someone who read it at 4.
      await asOwner(async () => {
        await cutTail(4);
        await db.updateTable("audit_checkpoint").set(early).where("id", "=", 1).execute();
      });
      rmSync(auditCheckpointFile(dataDir));
      const result = await trail.verify();
      expect(result).toMatchObject({ ok: false, entries: 4, broken: { seq: 5 } });
      if (!result.ok) expect(result.broken.reason).toMatch(/newest entries missing.*6.*this instance wrote/);
    });

    it("so does the next instance on the same data after a restart, through the checkpoint file", async () => {
      const before = instance();
      await appendMany(before, 4);
      // The attacker reads the checkpoint row at entry 4, and later puts it back.
      const early = await db.selectFrom("audit_checkpoint").selectAll().executeTakeFirstOrThrow();
      await appendMany(before, 3);
      await asOwner(async () => {
        await cutTail(4);
        await db.updateTable("audit_checkpoint").set(early).where("id", "=", 1).execute();
      });
      const restarted = instance();
      const result = await restarted.verify();
      expect(result).toMatchObject({ ok: false, entries: 4, broken: { seq: 5 } });
      if (!result.ok) expect(result.broken.reason).toMatch(/newest entries missing.*7.*checkpoint file/);
      // The file is the owner's alone.
      expect(statSync(auditCheckpointFile(dataDir)).mode & 0o777).toBe(0o600);
    });

    it("and an instance with no file of its own, through the keyed checkpoint in the database", async () => {
      await appendMany(instance(), 5);
      await asOwner(() => cutTail(3));
      const elsewhere = mkdtempSync(path.join(tmpdir(), "audit-other-"));
      try {
        expect(await instance(elsewhere).verify()).toMatchObject({ ok: false, entries: 3, broken: { seq: 4 } });
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    });

    it("a checkpoint written without the key is refused, in the table or the file", async () => {
      await appendMany(instance(), 3);
      const genuine = await db.selectFrom("audit_checkpoint").selectAll().executeTakeFirstOrThrow();
      await asOwner(() => sql`UPDATE audit_checkpoint SET seq = 9, mac = ${"0".repeat(64)}`.execute(db).then());
      expect(await instance().verify()).toMatchObject({
        ok: false,
        broken: { reason: expect.stringMatching(/database was not written with the key/) },
      });
      await db.updateTable("audit_checkpoint").set(genuine).where("id", "=", 1).execute();
      expect(await instance().verify()).toEqual({ ok: true, entries: 3 });
      const file = auditCheckpointFile(dataDir);
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), seq: 1 }));
      expect(await instance().verify()).toMatchObject({
        ok: false,
        broken: { reason: expect.stringMatching(/file was not written with the key/) },
      });
    });

    it("two instances of one deployment: what one wrote, the other's verify holds it to", async () => {
      const otherDir = mkdtempSync(path.join(tmpdir(), "audit-b-"));
      try {
        const a = instance();
        const b = instance(otherDir);
        await appendMany(a, 3);
        await appendMany(b, 3);
        expect(await a.verify()).toEqual({ ok: true, entries: 6 });
        await asOwner(() => cutTail(3));
        expect(await a.verify()).toMatchObject({ ok: false, entries: 3 });
        expect(await b.verify()).toMatchObject({ ok: false, entries: 3 });
      } finally {
        rmSync(otherDir, { recursive: true, force: true });
      }
    });

    it("a trail that only grew, under concurrent appends, still verifies", async () => {
      const trail = instance();
      await appendMany(trail, 2);
      const [result] = await Promise.all([
        trail.verify(),
        ...Array.from({ length: 10 }, (_, i) => trail.append(event(i))),
      ]);
      expect(result).toMatchObject({ ok: true });
      expect(await trail.verify()).toEqual({ ok: true, entries: 12 });
      expect(existsSync(auditCheckpointFile(dataDir))).toBe(true);
    });
  });
});
