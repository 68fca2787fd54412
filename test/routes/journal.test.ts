import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Match } from "../support/faults";
import {
  expectProblem,
  inProcessDashboard,
  newRef,
  smallOrder,
  smallTransfer,
  TRADING,
  TREASURY,
  type InProcessDashboard,
  type Database,
  type JournalItem,
} from "../support/dashboard";

/**
 * The journal of creates, on each database, its route handlers in process: what GET
 * /api/activity shows, and idempotent creates through the journal. PostgreSQL comes from the
 * routes project's globalSetup; without it these tests fail (inProcessDashboard throws), they
 * never skip. Entries a `kill -9` left pending, reconciled after the restart, are a test of the
 * process: test/integration/process/one-instance.test.ts and two-instances.test.ts.
 */

/** Journal rows with this ref_id, read from the database itself (not through the app). */
async function rowsInDatabase(d: InProcessDashboard, refId: string): Promise<number> {
  const { DATABASE_URL, DATA_DIR } = d.app.runtime.config;
  if (DATABASE_URL) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      const res = await client.query("SELECT count(*)::int AS n FROM journal WHERE ref_id = $1", [refId]);
      return res.rows[0].n as number;
    } finally {
      await client.end();
    }
  }
  const { default: SQLite } = await import("better-sqlite3");
  const db = new SQLite(path.join(DATA_DIR, "dashboard.db"), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM journal WHERE ref_id = ?").get(refId) as { n: number }).n;
  } finally {
    db.close();
  }
}

const createPath = (profile: string): Match => ({ method: "POST", path: `/sandbox/v2/profiles/${profile}/orders` });

describe.each<Database>(["sqlite", "postgres"])("the journal on %s", (database) => {
  let d: InProcessDashboard;
  let notStarted: unknown;

  beforeAll(async () => {
    try {
      // A runtime of its own on each database.
      d = await inProcessDashboard({ database });
    } catch (error) {
      notStarted = error; // every test below fails with it (a failed hook would only mark them skipped)
    }
  });
  beforeEach(() => {
    if (notStarted) throw notStarted;
  });
  afterAll(() => d?.dispose());

  it(`keeps the journal in ${database}`, async () => {
    const ref = newRef("where");
    expect((await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref))).status).toBe(200);
    expect(await rowsInDatabase(d, ref)).toBe(1);
  });

  describe("GET /api/activity", () => {
    const refs = { order: newRef("act"), transfer: newRef("act"), refused: newRef("act") };

    beforeAll(async () => {
      if (notStarted) return;
      const order = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(refs.order));
      const transfer = await d.as.admin.call("POST", "/api/v2/transfer/internal", smallTransfer(refs.transfer));
      d.proxy.fail(createPath(TRADING), { kind: "status", status: 503 }, 3);
      const refused = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(refs.refused));
      expect([order.status, transfer.status, refused.status]).toEqual([200, 200, 503]);
    });

    it("lists each create with who sent it, the request, and the outcome", async () => {
      const [order] = await d.journal(refs.order);
      expect(order).toMatchObject({
        kind: "order",
        status: "succeeded",
        http_status: 200,
        user_email: "trader@example.com",
        user_role: "trader",
        request: smallOrder(refs.order),
        record: { ref_id: refs.order, profile_id: TRADING },
        problem: null,
      });
      expect(order!.result_id).toBe(order!.record!.id);
      expect(order).toHaveProperty("latency_ms", expect.any(Number));
      const [transfer] = await d.journal(refs.transfer);
      expect(transfer).toMatchObject({ kind: "transfer", user_role: "admin", record: { direction: "DEBIT" } });
      const [refused] = await d.journal(refs.refused);
      expect(refused).toMatchObject({ status: "failed", http_status: 503, record: null, problem: { status: 503 } });
    });

    it("filters by kind, user, status, profile and ref_ids, for every role", async () => {
      const ids = Object.values(refs)
        .map((r) => `ref_ids=${r}`)
        .join("&");
      const list = async (query: string) => {
        const res = await d.as.viewer.call("GET", `/api/activity?${ids}&${query}`);
        expect(res.status).toBe(200);
        return (res.body.items as JournalItem[]).map((i) => i.ref_id).sort();
      };
      expect(await list("")).toEqual(Object.values(refs).sort());
      expect(await list("kind=transfer")).toEqual([refs.transfer]);
      expect(await list("user=trader@example.com")).toEqual([refs.order, refs.refused].sort());
      expect(await list("status=failed")).toEqual([refs.refused]);
      // Either side of a transfer matches a profile.
      expect(await list(`profile_id=${smallTransfer().to_profile_id}`)).toEqual([refs.transfer]);
      expect(await list(`profile_id=${TREASURY}&kind=transfer`)).toEqual([refs.transfer]);
    });

    it("pages newest first with a cursor, without gaps or repeats", async () => {
      const ids = Object.values(refs)
        .map((r) => `ref_ids=${r}`)
        .join("&");
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
        const res = await d.as.ops.call("GET", `/api/activity?${ids}&limit=2${q}`);
        expect(res.status).toBe(200);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.items.map((i: JournalItem) => i.ref_id));
        cursor = res.body.next_cursor;
      } while (cursor);
      expect(seen).toEqual([refs.refused, refs.transfer, refs.order]);
    });

    it("refuses a bad filter with a 400 problem naming it", async () => {
      for (const [query, field] of [
        ["limit=0", "limit"],
        ["status=lost", "status"],
        ["cursor=not-a-cursor", "cursor"],
        ["sort=id", "sort"],
      ]) {
        const p = expectProblem(await d.as.viewer.call("GET", `/api/activity?${query}`), 400);
        expect(p.meta.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
    });
  });

  describe("creates through the journal", () => {
    it("the same create sent twice (one ref_id): one order, the second answer is the same record", async () => {
      const ref = newRef();
      const first = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      const second = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body.id).toBe(first.body.id);
      expect(await d.sandboxOrders(ref)).toHaveLength(1);
      expect(await d.journal(ref)).toEqual([expect.objectContaining({ status: "succeeded" })]);
    });

    it("a double click (the same create twice at once): one order; the other answer is the record or 'in progress'", async () => {
      const ref = newRef();
      const answers = await Promise.all(
        [0, 1].map(() => d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref))),
      );
      const orders = await d.sandboxOrders(ref);
      expect(orders).toHaveLength(1);
      expect(answers.some((a) => a.status === 200)).toBe(true);
      for (const a of answers) {
        if (a.status === 200) expect(a.body.id).toBe(orders[0]!.id);
        else expect(expectProblem(a, 409).title).toBe("Already In Progress");
      }
      expect(await d.journal(ref)).toHaveLength(1);
    });

    it("a create without ref_id gets one generated (dash-...), journaled and sent", async () => {
      const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder());
      expect(res.status).toBe(200);
      expect(res.body.ref_id).toMatch(/^dash-[0-9a-f-]{36}$/);
      expect(await d.sandboxOrders(res.body.ref_id)).toHaveLength(1);
      expect(await d.journal(res.body.ref_id)).toEqual([
        expect.objectContaining({ status: "succeeded", result_id: res.body.id }),
      ]);
    });

    it("a ref_id already used for a different order is a 409 problem, not the old order", async () => {
      const ref = newRef();
      const first = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      expect(first.status).toBe(200);
      const other = await d.as.trader.call(
        "POST",
        `/api/v2/profiles/${TRADING}/orders`,
        smallOrder(ref, { price: "99.00" }),
      );
      expect(expectProblem(other, 409).detail).toContain(ref);
      expect(await d.sandboxOrders(ref)).toEqual([expect.objectContaining({ id: first.body.id, price: "100.00" })]);
      expect(await d.journal(ref)).toEqual([
        expect.objectContaining({ status: "succeeded", result_id: first.body.id }),
      ]);
    });

    it("the answer lost after the service created it: the record, one order, one succeeded entry", async () => {
      d.proxy.fail(createPath(TRADING), { kind: "forward-then-status", status: 500 });
      const ref = newRef();
      const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      expect(res.status).toBe(200);
      expect(await d.sandboxOrders(ref)).toEqual([expect.objectContaining({ id: res.body.id })]);
      expect(await d.journal(ref)).toEqual([expect.objectContaining({ status: "succeeded", result_id: res.body.id })]);
    });

    it("a create that never reached the service: 502, failed; sent again later with its ref_id: one order, one entry", async () => {
      d.proxy.fail(createPath(TRADING), { kind: "drop-before" }, 3);
      const ref = newRef();
      const failed = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      expectProblem(failed, 502);
      expect(await d.sandboxOrders(ref)).toHaveLength(0);
      expect(await d.journal(ref)).toEqual([expect.objectContaining({ status: "failed", http_status: 502 })]);
      const again = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      expect(again.status).toBe(200);
      expect(await d.sandboxOrders(ref)).toEqual([expect.objectContaining({ id: again.body.id })]);
      expect(await d.journal(ref)).toEqual([
        expect.objectContaining({ status: "succeeded", result_id: again.body.id }),
      ]);
    });
  });
});
