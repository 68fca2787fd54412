import path from "node:path";
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { createDb, dbConfigFromEnv, migrateToLatest, type Db, type DbConfig } from "@/lib/server/db";
import {
  arrivalOfOrder,
  arrivalsOfOrders,
  beginEntry,
  completeEntry,
  JournalRefIdTaken,
  journalEntryOfRef,
  findByResultId,
  listEntries,
  listPending,
  listRepeatsSince,
  recordDeclined,
  type JournalEntry,
  type NewJournalEntry,
} from "@/lib/server/db/journal";
import { postgres, sqlite, suiteDatabase } from "../../support/databases";

const order = (refId: string, over: Partial<NewJournalEntry> = {}): NewJournalEntry => ({
  at: new Date(),
  kind: "order",
  refId,
  userEmail: "trader@example.com",
  userRole: "trader",
  profileId: "prof-a",
  request: {
    side: "BUY",
    market: "BTCUSD",
    type: "LIMIT",
    base_amount: "0.10000001",
    price: "65000.25",
    ref_id: refId,
  },
  ...over,
});

const transfer = (refId: string, over: Partial<NewJournalEntry> = {}): NewJournalEntry => ({
  at: new Date(),
  kind: "transfer",
  refId,
  userEmail: "ops@example.com",
  userRole: "ops",
  profileId: "prof-a",
  toProfileId: "prof-b",
  request: { from_profile_id: "prof-a", to_profile_id: "prof-b", amount: "1250.50", asset: "USD", ref_id: refId },
  ...over,
});

describe.each([sqlite, postgres])("journal on $name", (backend) => {
  const suite = suiteDatabase(backend, ["journal"]);
  let db: Db;
  let config: DbConfig;
  beforeEach(() => ({ db, config } = suite));

  it("runs its migrations once: a second run and a second open change nothing", async () => {
    expect(await migrateToLatest(db as never)).toEqual([]);
    await beginEntry(db, order("kept"));
    const again = await createDb(config);
    try {
      expect(await journalEntryOfRef(again, "order", "kept")).toMatchObject({ ref_id: "kept", status: "pending" });
    } finally {
      await again.destroy();
    }
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(applied.rows.map((r) => r.name)).toEqual([
      "0001_journal",
      "0004_audit",
      "0005_approvals",
      "0006_journal_value",
      "0007_journal_duplicates",
      "0008_sessions",
      "0009_audit_append_only",
      "0009_oidc_identities",
      "0010_controls",
      "0011_batches",
      "0012_rebalance_targets",
      "0013_api_tokens",
      "0014_parent_orders",
      "0015_events_out",
    ]);
  });

  it("writes a pending entry before the create is sent", async () => {
    const entry = await beginEntry(db, order("o-1"));
    expect(entry).toMatchObject({
      kind: "order",
      ref_id: "o-1",
      user_email: "trader@example.com",
      user_role: "trader",
      profile_id: "prof-a",
      to_profile_id: null,
      status: "pending",
      completed_at: null,
      http_status: null,
      latency_ms: null,
      record: null,
      problem: null,
      result_id: null,
    });
    expect(entry.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await journalEntryOfRef(db, "order", "o-1")).toEqual(entry);
    // Amounts come back as the exact strings that went in.
    expect((entry.request as { base_amount: string }).base_amount).toBe("0.10000001");
    expect(await journalEntryOfRef(db, "transfer", "o-1")).toBeUndefined();
  });

  it("completes an entry with the service's record, once", async () => {
    const entry = await beginEntry(db, order("o-2"));
    const record = { id: "9f0c-order", status: "SUBMITTED", amount_filled: "0", price: "65000.25" };
    const done = await completeEntry(db, entry.id, { status: "succeeded", httpStatus: 200, latencyMs: 41.6, record });
    expect(done).toMatchObject({
      status: "succeeded",
      http_status: 200,
      latency_ms: 42,
      record,
      result_id: "9f0c-order",
    });
    expect(done?.completed_at).not.toBeNull();

    // A late second completion (a reconciliation racing the request) changes nothing.
    const problem = { type: "about:blank", title: "Gateway Timeout", status: 504 };
    expect(
      await completeEntry(db, entry.id, { status: "failed", httpStatus: 504, latencyMs: 1, problem }),
    ).toBeUndefined();
    expect(await journalEntryOfRef(db, "order", "o-2")).toEqual(done);
  });

  it("completes an entry with a problem", async () => {
    const entry = await beginEntry(db, transfer("t-1"));
    const problem = { type: "about:blank", title: "Unprocessable", status: 422, detail: "amount: too many decimals" };
    const done = await completeEntry(db, entry.id, { status: "failed", httpStatus: 422, latencyMs: 12, problem });
    expect(done).toMatchObject({ status: "failed", http_status: 422, problem, record: null, result_id: null });
    expect(await completeEntry(db, "no-such-id", { status: "failed", httpStatus: 500, latencyMs: 1, problem })).toBe(
      undefined,
    );
  });

  it("refuses a second entry for a ref_id of the same kind, by the unique constraint", async () => {
    const first = await beginEntry(db, order("dup"));
    const error = await beginEntry(db, order("dup", { userEmail: "admin@example.com" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JournalRefIdTaken);
    expect(error).toMatchObject({ kind: "order", refId: "dup", existing: first });
    // The same ref_id for the other kind is a different create.
    await expect(beginEntry(db, transfer("dup"))).resolves.toMatchObject({ kind: "transfer" });

    // The database itself refuses it, whatever code writes.
    const raw = db
      .insertInto("journal")
      .values({
        id: "raw-id",
        kind: "order",
        ref_id: "dup",
        user_email: "x@example.com",
        user_role: "admin",
        profile_id: "p",
        request_json: "{}",
        status: "pending",
        created_at: new Date().toISOString(),
      })
      .execute();
    await expect(raw).rejects.toThrow(/unique/i);
  });

  it("lists entries left pending, oldest first, for reconciliation", async () => {
    const a = await beginEntry(db, order("p-1"));
    const b = await beginEntry(db, transfer("p-2"));
    const c = await beginEntry(db, order("p-3"));
    await completeEntry(db, b.id, { status: "succeeded", httpStatus: 200, latencyMs: 5, record: { id: "tr-1" } });
    expect((await listPending(db)).map((e) => e.ref_id)).toEqual(["p-1", "p-3"]);
    expect(await listPending(db, { createdBefore: new Date(Date.parse(a.created_at) - 1) })).toEqual([]);
    expect((await listPending(db, { createdBefore: new Date(Date.now() + 1000) })).map((e) => e.id)).toEqual([
      a.id,
      c.id,
    ]);
  });

  it("finds this person's recent repeats of a request (apart from ref_id), pending or succeeded, newest first", async () => {
    const since = new Date(Date.now() - 60_000);
    const first = await beginEntry(db, order("r-1"));
    await completeEntry(db, first.id, { status: "succeeded", httpStatus: 200, latencyMs: 5, record: { id: "o-1" } });
    const failed = await beginEntry(db, order("r-2"));
    await completeEntry(db, failed.id, {
      status: "failed",
      httpStatus: 403,
      latencyMs: 5,
      problem: { type: "about:blank", title: "No", status: 403 },
    });
    await recordDeclined(db, { ...order("r-3"), repeatOf: "r-1" });
    await beginEntry(db, order("r-4", { repeatOf: "r-1" }));
    await beginEntry(db, order("other-profile", { profileId: "prof-b" }));
    await beginEntry(db, order("other-user", { userEmail: "admin@example.com" }));
    const keysInOtherOrder = {
      ref_id: "x",
      price: "65000.25",
      base_amount: "0.10000001",
      type: "LIMIT",
      market: "BTCUSD",
      side: "BUY",
    };
    const find = (request: unknown, at = since) =>
      listRepeatsSince(db, { kind: "order", userEmail: "trader@example.com", profileId: "prof-a", request, since: at });
    expect((await find(keysInOtherOrder)).map((e) => [e.ref_id, e.status, e.duplicate_of])).toEqual([
      ["r-4", "pending", "r-1"],
      ["r-1", "succeeded", null],
    ]);
    expect(await find({ ...keysInOtherOrder, base_amount: "0.1" })).toEqual([]);
    expect(await find(keysInOtherOrder, new Date(Date.now() + 1000))).toEqual([]);
    expect(await journalEntryOfRef(db, "order", "r-3")).toMatchObject({ status: "declined", duplicate_of: "r-1" });
  });

  it("pages newest first with a cursor that new entries do not disturb", async () => {
    const made: JournalEntry[] = [];
    for (let i = 0; i < 25; i++) made.push(await beginEntry(db, order(`page-${i}`)));
    const newestFirst = made.map((e) => e.ref_id).reverse();

    const first = await listEntries(db, { limit: 10 });
    expect(first.items.map((e) => e.ref_id)).toEqual(newestFirst.slice(0, 10));
    expect(first.next_cursor).toEqual(expect.any(String));

    // An entry written between pages appears on no later page.
    await beginEntry(db, order("late"));
    const second = await listEntries(db, { limit: 10, cursor: first.next_cursor });
    expect(second.items.map((e) => e.ref_id)).toEqual(newestFirst.slice(10, 20));
    const third = await listEntries(db, { limit: 10, cursor: second.next_cursor });
    expect(third.items.map((e) => e.ref_id)).toEqual(newestFirst.slice(20));
    expect(third.next_cursor).toBeNull();

    const exact = await listEntries(db, { limit: 26 });
    expect(exact.items).toHaveLength(26);
    expect(exact.next_cursor).toBeNull();
    expect((await listEntries(db)).items).toHaveLength(26);
  });

  it("filters by kind, user, status, profile and ref_ids", async () => {
    const o1 = await beginEntry(db, order("f-o1"));
    await beginEntry(db, order("f-o2", { userEmail: "admin@example.com", userRole: "admin", profileId: "prof-c" }));
    const t1 = await beginEntry(db, transfer("f-t1"));
    await beginEntry(db, transfer("f-t2", { profileId: "prof-c", toProfileId: "prof-d" }));
    await completeEntry(db, o1.id, { status: "succeeded", httpStatus: 200, latencyMs: 3, record: { id: "o" } });
    await completeEntry(db, t1.id, {
      status: "failed",
      httpStatus: 502,
      latencyMs: 3,
      problem: { type: "about:blank", title: "Bad Gateway", status: 502 },
    });

    const refs = async (q: Parameters<typeof listEntries>[1]) =>
      (await listEntries(db, q)).items.map((e) => e.ref_id).sort();
    expect(await refs({ kind: "order" })).toEqual(["f-o1", "f-o2"]);
    expect(await refs({ kind: "transfer" })).toEqual(["f-t1", "f-t2"]);
    expect(await refs({ user: "admin@example.com" })).toEqual(["f-o2"]);
    expect(await refs({ status: "pending" })).toEqual(["f-o2", "f-t2"]);
    expect(await refs({ status: "succeeded" })).toEqual(["f-o1"]);
    expect(await refs({ status: "failed" })).toEqual(["f-t1"]);
    // Either side of a transfer matches its profile.
    expect(await refs({ profileId: "prof-b" })).toEqual(["f-t1"]);
    expect(await refs({ profileId: "prof-c" })).toEqual(["f-o2", "f-t2"]);
    expect(await refs({ profileId: "prof-a" })).toEqual(["f-o1", "f-t1"]);
    expect(await refs({ refIds: ["f-o1", "f-t2", "unknown"] })).toEqual(["f-o1", "f-t2"]);
    expect(await refs({ refIds: [] })).toEqual([]);
    expect(await refs({ kind: "transfer", status: "pending", profileId: "prof-d" })).toEqual(["f-t2"]);

    const paged = await listEntries(db, { kind: "order", limit: 1 });
    expect(paged.items.map((e) => e.ref_id)).toEqual(["f-o2"]);
    const rest = await listEntries(db, { kind: "order", limit: 1, cursor: paged.next_cursor });
    expect(rest).toMatchObject({ items: [{ ref_id: "f-o1" }], next_cursor: null });
  });

  it("finds users by any part of their email, in any case, with % and _ taken literally", async () => {
    await beginEntry(db, order("u-1", { userEmail: "Taylor.Trader@example.com" }));
    await beginEntry(db, order("u-2", { userEmail: "ops@example.com" }));
    await beginEntry(db, order("u-3", { userEmail: "odd_one%x@example.com" }));
    const refs = async (userContains: string) =>
      (await listEntries(db, { userContains })).items.map((e) => e.ref_id).sort();
    expect(await refs("trader")).toEqual(["u-1"]);
    expect(await refs("TAYLOR.T")).toEqual(["u-1"]);
    expect(await refs("@EXAMPLE.com")).toEqual(["u-1", "u-2", "u-3"]);
    expect(await refs("_one%")).toEqual(["u-3"]);
    // A wildcard is only itself: "%" and "_" match no other character.
    expect(await refs("o%s")).toEqual([]);
    expect(await refs("t_ylor")).toEqual([]);
    expect(await refs("nobody")).toEqual([]);
  });

  it("filters by a created_at range: from inclusive, to exclusive", async () => {
    const made: JournalEntry[] = [];
    for (let i = 0; i < 3; i++) {
      made.push(await beginEntry(db, order(`d-${i}`)));
      await new Promise((r) => setTimeout(r, 5));
    }
    const [a, b, c] = made.map((e) => e.created_at);
    const refs = async (q: { from?: string; to?: string }) =>
      (await listEntries(db, q)).items.map((e) => e.ref_id).sort();
    expect(await refs({ from: b })).toEqual(["d-1", "d-2"]);
    expect(await refs({ to: b })).toEqual(["d-0"]);
    expect(await refs({ from: a, to: c })).toEqual(["d-0", "d-1"]);
    expect(await refs({ from: "2100-01-01T00:00:00.000Z" })).toEqual([]);
  });

  it("keeps an order's arrival mid, found by the order it made, alone or for a page of orders at once", async () => {
    const at = new Date("2026-01-01T10:00:00.000Z");
    const kept = await beginEntry(db, order("q-1", { arrivalMid: "60005", at }));
    await completeEntry(db, kept.id, { status: "succeeded", httpStatus: 200, latencyMs: 2, record: { id: "ord-q1" } });
    const unpriced = await beginEntry(db, order("q-2", { at }));
    await completeEntry(db, unpriced.id, {
      status: "succeeded",
      httpStatus: 200,
      latencyMs: 2,
      record: { id: "ord-q2" },
    });
    // Sent but refused: it made no order, so it is no order's arrival.
    const failed = await beginEntry(db, order("q-3", { arrivalMid: "1", at }));
    const problem = { type: "about:blank", title: "Forbidden", status: 403 };
    await completeEntry(db, failed.id, { status: "failed", httpStatus: 403, latencyMs: 2, problem });

    const arrival = { order_id: "ord-q1", profile_id: "prof-a", arrival_mid: "60005", arrival_at: at.toISOString() };
    expect(await arrivalOfOrder(db, "ord-q1")).toEqual(arrival);
    expect(await arrivalOfOrder(db, "ord-q2")).toMatchObject({ arrival_mid: null, arrival_at: at.toISOString() });
    expect(await arrivalOfOrder(db, "ord-elsewhere")).toBeUndefined();

    const page = await arrivalsOfOrders(db, [
      { id: "ord-q1", ref_id: "q-1" },
      { id: "ord-q2", ref_id: "q-2" },
      { id: "ord-q3", ref_id: "q-3" },
      // The same ref_id on another order (the service lets a ref_id be reused a day after): not its arrival.
      { id: "ord-reused", ref_id: "q-1" },
      { id: "ord-no-ref" },
    ]);
    expect([...page.keys()].sort()).toEqual(["ord-q1", "ord-q2"]);
    expect(page.get("ord-q1")).toEqual(arrival);
    expect(await arrivalsOfOrders(db, [{ id: "ord-no-ref" }])).toEqual(new Map());
  });

  it("journals a cancel and finds the order it was for by the create's result", async () => {
    const placed = await beginEntry(db, order("c-order"));
    await completeEntry(db, placed.id, { status: "succeeded", httpStatus: 200, latencyMs: 2, record: { id: "ord-9" } });
    const found = await findByResultId(db, "order", "ord-9");
    expect(found).toMatchObject({ ref_id: "c-order", request: { side: "BUY", market: "BTCUSD" } });
    expect(await findByResultId(db, "order", "ord-unknown")).toBeUndefined();
    expect(await findByResultId(db, "transfer", "ord-9")).toBeUndefined();

    const cancel = await beginEntry(db, {
      at: new Date(),
      kind: "cancel",
      refId: "c-1",
      userEmail: "trader@example.com",
      userRole: "trader",
      profileId: "prof-a",
      request: { order_id: "ord-9", profile_id: "prof-a", order: found!.request },
    });
    await completeEntry(db, cancel.id, {
      status: "succeeded",
      httpStatus: 200,
      latencyMs: 4,
      record: {},
      resultId: "ord-9",
    });
    const listed = await listEntries(db, { kind: "cancel" });
    expect(listed.items).toMatchObject([{ kind: "cancel", status: "succeeded", result_id: "ord-9" }]);
    expect((await listEntries(db, { kind: "order" })).items.map((e) => e.ref_id)).toEqual(["c-order"]);
  });

  it("refuses a cursor it did not hand out", async () => {
    const refused = { problem: { status: 400, meta: { errors: [{ field: "cursor", message: expect.any(String) }] } } };
    await expect(listEntries(db, { cursor: "not-a-cursor" })).rejects.toMatchObject(refused);
    const forged = Buffer.from(JSON.stringify({ a: 1 })).toString("base64url");
    await expect(listEntries(db, { cursor: forged })).rejects.toMatchObject(refused);
  });

  it("keeps exactly one entry when 20 requests race with one ref_id", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => beginEntry(db, order("race", { userEmail: `user${i}@example.com` }))),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const r of lost) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(JournalRefIdTaken);
    const rows = await db.selectFrom("journal").select("id").where("ref_id", "=", "race").execute();
    expect(rows).toHaveLength(1);
  });
});

describe("journal database configuration", () => {
  it("uses SQLite under DATA_DIR unless DATABASE_URL names a PostgreSQL server", () => {
    expect(dbConfigFromEnv({})).toEqual({ kind: "sqlite", file: path.join("data", "dashboard.db") });
    expect(dbConfigFromEnv({ DATA_DIR: "/var/lib/dash" })).toEqual({
      kind: "sqlite",
      file: "/var/lib/dash/dashboard.db",
    });
    expect(dbConfigFromEnv({ DATABASE_URL: "postgres://u@h/db", DATA_DIR: "/x" })).toEqual({
      kind: "postgres",
      url: "postgres://u@h/db",
    });
  });
});
