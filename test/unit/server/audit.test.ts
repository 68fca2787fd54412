import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { createAuditTrail, type AuditEvent, type AuditTrail } from "@/lib/server/audit";
import type { Db } from "@/lib/server/db";
import { postgres, sqlite, suiteDatabase } from "../../support/databases";

const KEY = "audit-key-for-tests";
const event = (n: number): AuditEvent => ({
  action: "create.requested",
  actor: { email: "ops@example.com", role: "ops" },
  ip: "127.0.0.1",
  subject: `ref-${n}`,
  detail: { kind: "transfer", request: { amount: "20000.00", asset: "USD" } },
});

describe.each([sqlite, postgres])("the audit trail on $name", (backend) => {
  const suite = suiteDatabase(backend, ["audit", "audit_head"]);
  let db: Db;
  let trail: AuditTrail;
  beforeEach(() => {
    db = suite.db;
    trail = createAuditTrail(db, KEY);
  });

  const appendMany = async (n: number) => {
    for (let i = 1; i <= n; i++) await trail.append(event(i));
  };

  it("appends entries in order, each chained to the one before, and verifies them", async () => {
    expect(await trail.verify()).toEqual({ ok: true, entries: 0 });
    const first = await trail.append(event(1));
    const second = await trail.append(event(2));
    expect([first.seq, second.seq]).toEqual([1, 2]);
    expect(second).toMatchObject({ action: "create.requested", actor_email: "ops@example.com", subject: "ref-2" });
    expect(second.detail).toEqual(event(2).detail);
    expect(await trail.verify()).toEqual({ ok: true, entries: 2 });
  });

  it("keeps one chain when 30 entries are appended at once", async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => trail.append(event(i))));
    const seqs = (await db.selectFrom("audit").select("seq").orderBy("seq").execute()).map((r) => Number(r.seq));
    expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(await trail.verify()).toEqual({ ok: true, entries: 30 });
  });

  it("finds an edited row", async () => {
    await appendMany(5);
    await sql`update audit set detail_json = ${'{"amount":"1.00"}'} where seq = 3`.execute(db);
    expect(await trail.verify()).toEqual({ ok: false, entries: 2, broken: { seq: 3, reason: "entry altered" } });
  });

  it("finds a deleted row, in the middle or the newest", async () => {
    await appendMany(5);
    await sql`delete from audit where seq = 2`.execute(db);
    expect(await trail.verify()).toMatchObject({ ok: false, broken: { seq: 2, reason: "entry missing" } });
    await db.deleteFrom("audit").execute();
    await db.deleteFrom("audit_head").execute();
    await appendMany(4);
    await sql`delete from audit where seq = 4`.execute(db);
    expect(await trail.verify()).toMatchObject({ ok: false, entries: 3, broken: { seq: 4 } });
  });

  it("finds a chain rewritten without the key", async () => {
    await appendMany(3);
    expect(await createAuditTrail(db, "another-key").verify()).toMatchObject({ ok: false, broken: { seq: 1 } });
  });
});
