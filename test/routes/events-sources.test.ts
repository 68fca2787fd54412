import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchesIdle } from "@/lib/server/batches/sender";
import { parentsIdle } from "@/lib/server/parent-orders/scheduler";
import type { EventType } from "@/lib/shared/webhooks";
import { disableAuditTriggers, openAppDatabase } from "../support/tamper";
import {
  clearHouseOrders,
  eventually,
  expectProblem,
  houseOrder,
  inProcessDashboard,
  newRef,
  sandboxTurn,
  SETTLEMENT,
  TRADING,
  TREASURY,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * Events out (issue 30), at their sources: each change the dashboard makes writes its event to the
 * outbox in the change's own transaction. Through the route handlers in process, on each
 * database: exactly one row per change (two approvers racing decide once), none for a refused
 * create, none when the change rolls back.
 */

interface Row<T> {
  id: string;
  at: string;
  data: T;
}

describe.each<Database>(["sqlite", "postgres"])("event sources on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    // Sessions outlive the two hours the expiry test moves the clock by.
    d = await inProcessDashboard({ database, env: { SESSION_IDLE_MINUTES: "480" } });
  });
  afterAll(() => d?.dispose());

  /** The outbox's rows of `type` whose data `which` picks. */
  async function outbox<T = any>(type: EventType, which: (data: T) => boolean = () => true): Promise<Row<T>[]> {
    const rows = await d.app.runtime.db
      .selectFrom("outbox_events")
      .select(["id", "at", "data_json"])
      .where("type", "=", type)
      .execute();
    return rows.map((r) => ({ id: r.id, at: r.at, data: JSON.parse(r.data_json) as T })).filter((r) => which(r.data));
  }

  /** Events about this approval, or about the request under this ref_id. */
  const ofApproval = (id: string) => (data: any) => data.approval.id === id;
  const ofRef = (ref: string) => (data: any) => data.approval.request.ref_id === ref;

  const transfer = (ref: string, amount: string) => ({
    from_profile_id: TREASURY,
    to_profile_id: SETTLEMENT,
    asset: "USD",
    amount,
    ref_id: ref,
  });

  let held = 0;
  /** A transfer the default rule (10,000 USD) holds; each a different amount, so none is asked about as a repeat. */
  async function holdTransfer() {
    held += 1;
    const res = await d.as.ops.call(
      "POST",
      "/api/v2/transfer/internal",
      transfer(newRef("held"), String(20000 + held)),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return res.body.approval as { id: string; ref_id: string };
  }

  it("approval.requested: one row with the approval as the API shows it; none for a create refused by a limit, which records limit.refused", async () => {
    const approval = await holdTransfer();
    const requested = await outbox("approval.requested", ofApproval(approval.id));
    expect(requested).toHaveLength(1);
    const view = (await d.as.approver.call("GET", `/api/approvals/${approval.id}`)).body.approval;
    expect(requested[0]!.data).toEqual({ approval: view });
    expect(view).toMatchObject({ status: "PENDING", kind: "transfer", requested_by: "ops@example.com", approvals: [] });

    // Past the daily transfer limit (1,000,000 USD): refused, nothing held.
    const ref = newRef("limit");
    expectProblem(await d.as.ops.call("POST", "/api/v2/transfer/internal", transfer(ref, "2000000")), 403);
    expect(await outbox("approval.requested", ofRef(ref))).toEqual([]);
    const refused = await outbox("limit.refused", (data: any) => data.refusal.ref_id === ref);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.data.refusal).toMatchObject({
      kind: "transfer",
      ref_id: ref,
      profile_id: TREASURY,
      requested_by: "ops@example.com",
      rule: "daily_transfer_usd_per_user",
      limit: "1000000",
      value_usd: expect.stringMatching(/^2000000(\.0+)?$/),
      detail: expect.stringMatching(/at most/),
      problem: { status: 403, title: "Limit Exceeded" },
    });
  });

  it("approval.decided: one row when two approvers approve at once, and one when two reject at once", async () => {
    const approved = await holdTransfer();
    const approvals = await Promise.all(
      [d.as.approver, d.as.admin].map((who) => who.call("POST", `/api/approvals/${approved.id}/approve`)),
    );
    expect(approvals.map((a) => a.status).sort()).toEqual(expect.arrayContaining([200]));
    const decided = await outbox("approval.decided", ofApproval(approved.id));
    expect(decided).toHaveLength(1);
    expect(decided[0]!.data.approval).toMatchObject({
      id: approved.id,
      status: "APPROVED",
      decided_by: expect.stringMatching(/^(approver|admin)@example\.com$/),
      reason: null,
      // The other's vote too, when it landed first (PostgreSQL runs them at once).
      approvals: expect.arrayContaining([expect.objectContaining({ by: decided[0]!.data.approval.decided_by })]),
    });

    const rejected = await holdTransfer();
    const rejections = await Promise.all(
      [d.as.approver, d.as.admin].map((who) =>
        who.call("POST", `/api/approvals/${rejected.id}/reject`, { reason: "Wrong desk" }),
      ),
    );
    expect(rejections.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = rejections.find((a) => a.status === 200)!.body.approval.decided_by;
    const rejectedRows = await outbox("approval.decided", ofApproval(rejected.id));
    expect(rejectedRows.map((r) => r.data.approval)).toEqual([
      expect.objectContaining({ status: "REJECTED", decided_by: winner, reason: "Wrong desk" }),
    ]);
  });

  it("approval.decided: a withdrawal and an expiry, each once", async () => {
    const withdrawn = await holdTransfer();
    expect((await d.as.ops.call("POST", `/api/approvals/${withdrawn.id}/withdraw`)).status).toBe(200);
    const rows = await outbox("approval.decided", ofApproval(withdrawn.id));
    expect(rows.map((r) => r.data.approval)).toEqual([
      expect.objectContaining({ status: "WITHDRAWN", decided_by: "ops@example.com" }),
    ]);

    const expiring = await holdTransfer();
    // Two hours on (the rule's 120 minutes): the sweep, or this read, expires it; one of them records it.
    d.app.clock.advance(121 * 60_000);
    const read = await d.as.approver.call("GET", `/api/approvals/${expiring.id}`);
    expect(read.body.approval.status).toBe("EXPIRED");
    const expired = await outbox("approval.decided", ofApproval(expiring.id));
    expect(expired.map((r) => r.data.approval)).toEqual([
      expect.objectContaining({ status: "EXPIRED", decided_by: null, reason: null }),
    ]);
    expect(expired[0]!.at).toBe(read.body.approval.decided_at);
  });

  describe("batches", () => {
    const BATCHES = "/api/batches";
    const usdRows = (amounts: string[]) =>
      amounts.map((amount) => ({ from_profile_id: TREASURY, to_profile_id: SETTLEMENT, asset: "USD", amount }));
    const post = (ref: string, amounts: string[]) =>
      d.as.ops.call("POST", BATCHES, { ref_id: ref, transfers: usdRows(amounts) });

    it("batch.completed: one row with the batch as the API shows it", async () => {
      const res = await post(newRef("batch"), ["1.11", "1.12"]);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.batch.id as string;
      const done = await eventually(
        async () => {
          await batchesIdle(d.app.runtime);
          const { body } = await d.as.ops.call("GET", `${BATCHES}/${id}`);
          return body.batch.status === "SENDING" ? undefined : body.batch;
        },
        10_000,
        "the batch to finish sending",
      );
      expect(done.status).toBe("COMPLETED");
      const rows = await outbox("batch.completed", (data: any) => data.batch.id === id);
      expect(rows.map((r) => r.data)).toEqual([{ batch: done }]);
    });

    it("a held batch records approval.requested; one past the daily limit records limit.refused and nothing held", async () => {
      const heldRef = newRef("held-batch");
      const heldRes = await post(heldRef, ["6000.00", "6000.01"]);
      expect(heldRes.status, JSON.stringify(heldRes.body)).toBe(202);
      const requested = await outbox("approval.requested", ofApproval(heldRes.body.approval.id));
      expect(requested.map((r) => r.data.approval)).toEqual([
        expect.objectContaining({
          kind: "batch",
          status: "PENDING",
          request: expect.objectContaining({ ref_id: heldRef }),
        }),
      ]);

      const refusedRef = newRef("big-batch");
      expectProblem(await post(refusedRef, ["600000", "600000"]), 403);
      expect(await outbox("approval.requested", ofRef(refusedRef))).toEqual([]);
      const refused = await outbox("limit.refused", (data: any) => data.refusal.ref_id === refusedRef);
      expect(refused.map((r) => r.data.refusal)).toEqual([
        expect.objectContaining({
          kind: "batch",
          profile_id: null,
          requested_by: "ops@example.com",
          rule: "daily_transfer_usd_per_user",
          limit: "1000000",
        }),
      ]);
    });

    it("a held batch whose write fails after its approval's records nothing: the event rolled back with it", async () => {
      const ref = newRef("rollback");
      const db = d.app.runtime.db;
      // The batch's own insert fails, after the approval and its event were written in the same transaction.
      if (database === "postgres") {
        await sql
          .raw(
            `CREATE FUNCTION refuse_test_batch() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`,
          )
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER refuse_test_batch BEFORE INSERT ON batches FOR EACH ROW WHEN (NEW.ref_id = '${ref}') EXECUTE FUNCTION refuse_test_batch()`,
          )
          .execute(db);
      } else {
        await sql
          .raw(
            `CREATE TRIGGER refuse_test_batch BEFORE INSERT ON batches WHEN NEW.ref_id = '${ref}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
          )
          .execute(db);
      }
      try {
        expectProblem(await post(ref, ["7000.00", "7000.01"]), 500);
      } finally {
        await sql.raw(`DROP TRIGGER refuse_test_batch${database === "postgres" ? " ON batches" : ""}`).execute(db);
        if (database === "postgres") await sql.raw(`DROP FUNCTION refuse_test_batch()`).execute(db);
      }
      expect(await db.selectFrom("approvals").select("id").where("ref_id", "=", ref).execute()).toEqual([]);
      expect(await outbox("approval.requested", ofRef(ref))).toEqual([]);
    });
  });

  describe("parent orders", () => {
    const PARENTS = "/api/parent-orders";
    const twap = (extra: Record<string, unknown> = {}) => ({
      ref_id: newRef("twap"),
      profile_id: TRADING,
      market: "BTCUSD",
      side: "BUY",
      base_amount: "0.2",
      strategy: "TWAP",
      duration_seconds: 60,
      slices: 2,
      limit_price: "61000",
      ...extra,
    });

    /** The house's book: 60,000 / 60,010, an ask deep enough to fill a small parent. */
    const book = () => {
      clearHouseOrders(d.app.runtime.sandbox!);
      houseOrder(d.app.runtime.sandbox!, "SELL", "60010", "1");
      houseOrder(d.app.runtime.sandbox!, "BUY", "60000", "1");
    };

    it("parent_order.completed: one row with the parent as the API shows it", async () => {
      book();
      const res = await d.as.trader.call("POST", PARENTS, twap());
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.parent_order.id as string;
      const done = await eventually(
        async () => {
          d.app.clock.advance(5_000);
          await parentsIdle(d.app.runtime);
          await sandboxTurn();
          await parentsIdle(d.app.runtime);
          const { body } = await d.as.trader.call("GET", `${PARENTS}/${id}`);
          return body.parent_order.status === "COMPLETED" ? body.parent_order : undefined;
        },
        10_000,
        "the parent to complete",
        1,
      );
      const rows = await outbox("parent_order.completed", (data: any) => data.parent_order.id === id);
      expect(rows).toHaveLength(1);
      const { quality: _q, ...parent } = done;
      expect(rows[0]!.data.parent_order).toMatchObject({ ...parent, status: "COMPLETED", filled_base: "0.2" });
    });

    it("a held parent records approval.requested; one past the largest order records limit.refused and nothing held", async () => {
      book();
      // 2 BTC at 61,000: 122,000 USD, past the order rule's 100,000.
      const heldRes = await d.as.trader.call("POST", PARENTS, twap({ base_amount: "2" }));
      expect(heldRes.status, JSON.stringify(heldRes.body)).toBe(202);
      const requested = await outbox("approval.requested", ofApproval(heldRes.body.approval.id));
      expect(requested.map((r) => r.data.approval)).toEqual([
        expect.objectContaining({ kind: "parent_order", status: "PENDING", profile_id: TRADING }),
      ]);

      // 20 BTC: 1,220,000 USD, past the trader's largest order (1,000,000).
      const big = twap({ base_amount: "20" });
      expectProblem(await d.as.trader.call("POST", PARENTS, big), 403);
      expect(await outbox("approval.requested", ofRef(big.ref_id))).toEqual([]);
      const refused = await outbox("limit.refused", (data: any) => data.refusal.ref_id === big.ref_id);
      expect(refused.map((r) => r.data.refusal)).toEqual([
        expect.objectContaining({
          kind: "parent_order",
          profile_id: TRADING,
          requested_by: "trader@example.com",
          rule: "max_order_notional_usd",
          limit: "1000000",
          value_usd: expect.stringMatching(/^1220000(\.0+)?$/),
        }),
      ]);
    });
  });

  it("policy.changed: a tightening at once; a loosening held (approval.requested), then applied when approved", async () => {
    const before = (await d.as.admin.call("GET", "/api/policies")).body.policy;
    const tighter = { ...before, limits: { ...before.limits, price_guard_percent: "4" } };
    expect((await d.as.admin.call("PUT", "/api/policies", tighter)).status).toBe(200);
    const tightened = await outbox("policy.changed", (data: any) => data.policy.limits.price_guard_percent === "4");
    expect(tightened.map((r) => r.data)).toEqual([
      { policy: tighter, previous: before, changed_by: "admin@example.com" },
    ]);

    const back = await d.as.admin.call("PUT", "/api/policies", before);
    expect(back.status).toBe(202);
    const approvalId = back.body.approval.id as string;
    const requested = await outbox("approval.requested", ofApproval(approvalId));
    expect(requested.map((r) => r.data.approval)).toEqual([
      expect.objectContaining({ kind: "policy", request: { before: tighter, after: before } }),
    ]);
    expect(await outbox("policy.changed", (data: any) => data.approval_id === approvalId)).toEqual([]);

    expect((await d.as.approver.call("POST", `/api/approvals/${approvalId}/approve`)).status).toBe(200);
    const applied = await outbox("policy.changed", (data: any) => data.approval_id === approvalId);
    expect(applied.map((r) => r.data)).toEqual([
      {
        policy: before,
        previous: tighter,
        changed_by: "admin@example.com",
        approval_id: approvalId,
        approved_by: "approver@example.com",
      },
    ]);
    expect(await outbox("approval.decided", ofApproval(approvalId))).toHaveLength(1);
  });

  // Last: it breaks the audit chain for good.
  it("audit.verify_failed: none while the chain holds, one row for a failed verification", async () => {
    expect((await d.as.admin.call("GET", "/api/audit/verify")).body.ok).toBe(true);
    expect(await outbox("audit.verify_failed")).toEqual([]);

    const { DATA_DIR, DATABASE_URL } = d.app.runtime.config;
    const raw = await openAppDatabase({ env: DATABASE_URL ? { DATABASE_URL } : {}, app: { dataDir: DATA_DIR } });
    try {
      await disableAuditTriggers(raw, database === "postgres");
      await raw.run("update audit set detail_json = '{}' where seq = 3");
    } finally {
      await raw.close();
    }
    const verification = (await d.as.admin.call("GET", "/api/audit/verify")).body;
    expect(verification).toMatchObject({ ok: false, broken: { seq: 3, reason: "entry altered" } });
    expect((await outbox("audit.verify_failed")).map((r) => r.data)).toEqual([{ verification }]);
  });
});
