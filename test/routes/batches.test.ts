import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireDue } from "@/lib/server/approvals/decisions";
import { batchesIdle } from "@/lib/server/batches/sender";
import { BATCH_MAX_ROWS } from "@/lib/shared/batch-file";
import {
  eventually,
  expectProblem,
  inProcessDashboard,
  newRef,
  quote,
  rawCall,
  SETTLEMENT,
  TRADING,
  TREASURY,
  type Client,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";
import { openStream, type OpenStream } from "../support/event-stream";
import { RESERVE } from "../support/requests";

/**
 * POST /api/batches and what follows it, through the route handlers in process, on each
 * database, as the desk's people would try it: every refusal of the file (one bad row refuses
 * all, nothing stored), funds, limits and four eyes weighed on the whole (a threshold not dodged
 * by splitting), a replayed or raced ref_id, the repeat question, the approval checked again at
 * send, cancel, reject and expiry, and every row at the service exactly once.
 */

const BATCHES = "/api/batches";

describe.each<Database>(["sqlite", "postgres"])("batches on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await inProcessDashboard({ database });
  });
  afterAll(async () => {
    await d?.dispose();
  });

  /** A CSV file sent as the browser sends it: the person's cookie and origin, the batch's ref_id in the query. */
  const postCsv = (who: Client, csv: string | Uint8Array, ref: string, headers: Record<string, string> = {}) =>
    rawCall(d.target, "POST", `${BATCHES}?ref_id=${encodeURIComponent(ref)}`, {
      body: csv,
      headers: { "Content-Type": "text/csv", Cookie: who.cookie(), Origin: d.url, ...headers },
    });

  /** `n` rows of small USD amounts from Treasury to Settlement, each its own (a note unique to the test). */
  const usdRows = (n: number, amount = (i: number) => `1.${String(i + 1).padStart(2, "0")}`) => {
    const note = randomUUID();
    return Array.from({ length: n }, (_, i) => ({
      from_profile_id: TREASURY,
      to_profile_id: SETTLEMENT,
      asset: "USD",
      amount: amount(i),
      metadata: { note },
    }));
  };

  const postJson = (who: Client, transfers: unknown[], ref = newRef("batch"), headers: Record<string, string> = {}) =>
    who.call("POST", BATCHES, { ref_id: ref, transfers }, headers);

  /** Waits for the sender to finish what it was told, and answers the batch as it stands. */
  async function settled(id: string) {
    return eventually(
      async () => {
        await batchesIdle(d.app.runtime);
        const { body } = await d.as.ops.call("GET", `${BATCHES}/${id}`);
        return body.batch.status === "SENDING" ? undefined : body.batch;
      },
      20_000,
      "the batch to finish sending",
    );
  }

  async function atService(refId: string) {
    const legs = await d.sandboxTransfers(refId);
    return legs.filter((l) => l.direction === "DEBIT");
  }

  const listedRefs = async () =>
    (await d.as.ops.call("GET", BATCHES)).body.items.map((b: { ref_id: string }) => b.ref_id);

  it("a CSV file with nicknames and grouped digits is sent row by row, each row once, and completes (201)", async () => {
    const ref = newRef("csv");
    const note = randomUUID().slice(0, 8);
    const csv = [
      "from_profile,to_profile,asset,amount,note",
      `Treasury,Settlement,USD,"1,250.00",${note}`,
      `${TREASURY},Operations reserve,USD,2.50,${note}`,
      `treasury,${TRADING},BTC,0.001,${note}`,
    ].join("\r\n");
    await quote(d, "BTCUSD", "60000", "60010");
    const res = await postCsv(d.as.ops, csv, ref);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const batch = res.body.batch;
    expect(batch).toMatchObject({ ref_id: ref, status: "SENDING", requested_by: "ops@example.com" });
    expect(batch.rows.map((r: { to_profile_id: string; amount: string }) => [r.to_profile_id, r.amount])).toEqual([
      [SETTLEMENT, "1250.00"],
      [RESERVE, "2.50"],
      [TRADING, "0.001"],
    ]);
    const done = await settled(batch.id);
    expect(done.status).toBe("COMPLETED");
    expect(done.counts).toEqual({ waiting: 0, sent: 3, failed: 0, skipped: 0 });
    for (const row of done.rows) {
      expect(row.ref_id).toBe(`${ref}-${row.row}`);
      expect(row.transfer_id).toBeTruthy();
      expect(await atService(row.ref_id), `row ${row.row} at the service once`).toHaveLength(1);
    }
    expect(done.totals).toEqual([
      { asset: "BTC", amount: "0.001", value_usd: expect.stringMatching(/^60\.\d+$/) },
      { asset: "USD", amount: "1252.5", value_usd: "1252.5" },
    ]);
  });

  it("refuses a file with any bad row, naming each row and field in the form's words, and stores nothing (400)", async () => {
    const ref = newRef("bad");
    const used = newRef("used");
    const sent = await d.as.ops.call("POST", "/api/v2/transfer/internal", {
      from_profile_id: TREASURY,
      to_profile_id: SETTLEMENT,
      asset: "USD",
      amount: "1.00",
      ref_id: used,
    });
    expect(sent.status).toBe(200);
    const csv = [
      "from_profile,to_profile,asset,amount,ref_id",
      `Treasury,Treasury,USD,1.00,${ref}-a`,
      `Treasury,Settlement,USD,1.2.3,${ref}-b`,
      `Treasury,Settlement,USD,1.00,${ref}-c`,
      `Treasury,Settlement,USD,1.00,${ref}-c`,
    ].join("\n");
    const res = await postCsv(d.as.ops, csv, ref);
    expectProblem(res, 400);
    const fields = res.body.meta.errors.map((e: { row: number; field: string }) => `${e.row}:${e.field}`);
    expect(fields).toEqual(expect.arrayContaining(["1:to_profile", "2:amount", "4:ref_id"]));
    for (const e of res.body.meta.errors) expect(e.message.length).toBeGreaterThan(10);
    // A row whose ref_id another transfer already has.
    const taken = await postJson(d.as.ops, [{ ...usdRows(1)[0], ref_id: used }]);
    expectProblem(taken, 400);
    expect(taken.body.meta.errors).toEqual([
      { row: 1, field: "ref_id", message: expect.stringContaining("already used") },
    ]);
    expect(await listedRefs()).not.toContain(ref);
  });

  it("refuses a file that is not UTF-8, one whose byte-order mark breaks it, and one with too many rows", async () => {
    const latin1 = Uint8Array.from([
      ...Buffer.from("from_profile,to_profile,asset,amount,note\nTreasury,Settlement,USD,1.00,caf"),
      0xe9,
    ]);
    const notUtf8 = await postCsv(d.as.ops, latin1, newRef("latin"));
    expectProblem(notUtf8, 400);
    expect(notUtf8.body.meta.errors[0]).toMatchObject({ field: "file", message: expect.stringMatching(/UTF-8/) });
    const bom = "\uFEFFfrom_profile,to_profile,asset,amount\n\uFEFFTreasury,Settlement,USD,1.00";
    const stray = await postCsv(d.as.ops, bom, newRef("bom"));
    expectProblem(stray, 400);
    expect(JSON.stringify(stray.body.meta.errors)).toMatch(/byte-order mark/i);
    const many = ["from_profile,to_profile,asset,amount"];
    for (let i = 0; i <= BATCH_MAX_ROWS; i++) many.push(`Treasury,Settlement,USD,0.01`);
    const tooMany = await postCsv(d.as.ops, many.join("\n"), newRef("many"));
    expectProblem(tooMany, 400);
    expect(tooMany.body.meta.errors).toEqual([
      { row: BATCH_MAX_ROWS + 1, field: "file", message: expect.stringContaining("at most 1,000") },
    ]);
  });

  it("refuses a batch a sending profile cannot pay, naming the profile, asset, available and needed, and stores nothing (403)", async () => {
    await quote(d, "BTCUSD", "60000", "60010");
    const ref = newRef("funds");
    const rows = usdRows(2).map((r) => ({ ...r, from_profile_id: RESERVE, asset: "BTC", amount: "1.5" }));
    const res = await postJson(d.as.ops, rows, ref);
    expectProblem(res, 403);
    expect(res.body.meta).toEqual({ profile_id: RESERVE, asset: "BTC", available: "2", needed: "3" });
    expect(res.body.detail).toContain(RESERVE);
    expect(await listedRefs()).not.toContain(ref);
  });

  it("holds a batch whose total reaches the transfer rule for one approval of the whole, then sends it (202)", async () => {
    const ref = newRef("held");
    const res = await postJson(
      d.as.ops,
      usdRows(3, () => "4000.00"),
      ref,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.approval).toMatchObject({ kind: "batch", status: "PENDING", value_usd: "12000" });
    expect(res.body.approval.request).toMatchObject({ ref_id: ref, rows: 3, batch_id: res.body.batch.id });
    expect(res.body.batch).toMatchObject({ status: "AWAITING_APPROVAL", approval_id: res.body.approval.id });
    expect(await atService(`${ref}-1`), "nothing sent while it waits").toHaveLength(0);
    const own = await d.as.ops.call("POST", `/api/approvals/${res.body.approval.id}/approve`);
    expect(own.status, "the requester cannot approve it").toBe(403);
    const context = await d.as.approver.call("GET", `/api/approvals/${res.body.approval.id}/context`);
    expect(context.body.batch_funds).toEqual([
      { profile_id: TREASURY, asset: "USD", needed: "12000", available: expect.any(String) },
    ]);
    const approved = await d.as.approver.call("POST", `/api/approvals/${res.body.approval.id}/approve`);
    expect(approved.body.approval.outcome).toMatchObject({ status: 201, sent: true });
    const done = await settled(res.body.batch.id);
    expect(done.counts.sent).toBe(3);
    for (const row of done.rows) expect(await atService(row.ref_id)).toHaveLength(1);
  });

  it("two batches cannot be split to pass under the threshold: the second waits", async () => {
    const first = await postJson(
      d.as.admin,
      usdRows(1, () => "6000.00"),
    );
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await postJson(
      d.as.admin,
      usdRows(1, () => "6000.00"),
    );
    expect(second.status, JSON.stringify(second.body)).toBe(202);
    expect(second.body.approval.hold_reason).toMatch(/last 24 h/);
    await settled(first.body.batch.id);
    await d.as.admin.call("POST", `/api/batches/${second.body.batch.id}/cancel`);
    // Nor a batch and a single transfer: the batch's rows count toward the transfer's threshold.
    const single = await d.as.admin.call("POST", "/api/v2/transfer/internal", {
      ...usdRows(1, () => "5000.00")[0],
      ref_id: newRef("single"),
    });
    expect(single.status, JSON.stringify(single.body)).toBe(202);
    await d.as.admin.call("POST", `/api/approvals/${single.body.approval.id}/withdraw`);
  });

  it("a batch counts whole toward the daily transfer limit: past it, refused with the figures and nothing stored (403)", async () => {
    const ref = newRef("limit");
    const res = await postJson(
      d.as.ops,
      usdRows(10, () => "100001.00"),
      ref,
    );
    expectProblem(res, 403);
    expect(res.body.meta).toMatchObject({
      rule: "daily_transfer_usd_per_user",
      limit: "1000000",
      requested: "1000010.00",
    });
    expect(res.body.detail).toMatch(/this batch is 1,000,010\.00 USD/);
    expect(await listedRefs()).not.toContain(ref);
  });

  it("a replay of the batch's ref_id answers the batch as it stands; other rows under it are a 409", async () => {
    const ref = newRef("replay");
    const rows = usdRows(2);
    const [a, b] = await Promise.all([postJson(d.as.ops, rows, ref), postJson(d.as.ops, rows, ref)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.batch.id).toBe(b.body.batch.id);
    const done = await settled(a.body.batch.id);
    const again = await postJson(d.as.ops, rows, ref);
    expect(again.status).toBe(200);
    expect(again.body.batch).toMatchObject({ id: done.id, status: "COMPLETED" });
    for (const row of done.rows) expect(await atService(row.ref_id)).toHaveLength(1);
    const other = await postJson(d.as.ops, usdRows(1), ref);
    expectProblem(other, 409);
  });

  it("the same rows under another ref_id within a minute are asked about (409), and go once confirmed", async () => {
    const rows = usdRows(2);
    const first = await postJson(d.as.ops, rows);
    expect(first.status).toBe(201);
    const repeat = await postJson(d.as.ops, rows);
    expectProblem(repeat, 409);
    expect(repeat.body.meta.previous.ref_id).toBe(first.body.batch.ref_id);
    const confirmed = await postJson(d.as.ops, rows, newRef("batch"), { "Confirm-Duplicate": first.body.batch.ref_id });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    await settled(first.body.batch.id);
    await settled(confirmed.body.batch.id);
  });

  it("only ops and admins may send a batch", async () => {
    for (const who of [d.as.trader, d.as.viewer, d.as.approver]) {
      const res = await postJson(who, usdRows(1));
      expectProblem(res, 403);
    }
  });

  it("an approval is checked again at send: funds gone meanwhile refuse it, and nothing is sent", async () => {
    await quote(d, "BTCUSD", "60000", "60010");
    const ref = newRef("recheck");
    const rows = usdRows(1).map((r) => ({ ...r, from_profile_id: RESERVE, asset: "BTC", amount: "1.5" }));
    const held = await postJson(d.as.ops, rows, ref);
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    // A BTC of the reserve's leaves it while the batch waits.
    const drain = await d.as.admin.call("POST", "/api/v2/transfer/internal", {
      from_profile_id: RESERVE,
      to_profile_id: TREASURY,
      asset: "BTC",
      amount: "1",
      ref_id: newRef("drain"),
    });
    expect(drain.status, JSON.stringify(drain.body)).toBe(202);
    const drained = await d.as.approver.call("POST", `/api/approvals/${drain.body.approval.id}/approve`);
    expect(drained.body.approval.outcome).toMatchObject({ status: 200, sent: true });
    const approved = await d.as.approver.call("POST", `/api/approvals/${held.body.approval.id}/approve`);
    expect(approved.body.approval.outcome).toMatchObject({ status: 403, sent: false });
    expect(approved.body.approval.outcome.body.meta).toMatchObject({
      profile_id: RESERVE,
      asset: "BTC",
      needed: "1.5",
    });
    const batch = (await d.as.ops.call("GET", `${BATCHES}/${held.body.batch.id}`)).body.batch;
    expect(batch).toMatchObject({ status: "REJECTED", counts: { skipped: 1, sent: 0 } });
    expect(await atService(`${ref}-1`)).toHaveLength(0);
  });

  it("a rejected batch and a cancelled one send nothing; cancel withdraws its approval; only its requester or an admin cancels", async () => {
    const rejected = await postJson(
      d.as.ops,
      usdRows(1, () => "11000.00"),
    );
    expect(rejected.status).toBe(202);
    await d.as.approver.call("POST", `/api/approvals/${rejected.body.approval.id}/reject`, { reason: "not today" });
    expect((await d.as.ops.call("GET", `${BATCHES}/${rejected.body.batch.id}`)).body.batch).toMatchObject({
      status: "REJECTED",
      counts: { skipped: 1 },
    });
    const held = await postJson(
      d.as.ops,
      usdRows(1, () => "12000.00"),
    );
    expect(held.status).toBe(202);
    const stranger = await d.as.trader.call("POST", `${BATCHES}/${held.body.batch.id}/cancel`);
    expectProblem(stranger, 403);
    const cancelled = await d.as.ops.call("POST", `${BATCHES}/${held.body.batch.id}/cancel`);
    expect(cancelled.body.batch).toMatchObject({ status: "CANCELLED", counts: { skipped: 1 } });
    const approval = await d.as.approver.call("GET", `/api/approvals/${held.body.approval.id}`);
    expect(approval.body.approval.status).toBe("WITHDRAWN");
    const late = await d.as.approver.call("POST", `/api/approvals/${held.body.approval.id}/approve`);
    expectProblem(late, 409);
    expect(await atService(`${held.body.batch.ref_id}-1`)).toHaveLength(0);
  });

  it("a batch whose approval expires ends EXPIRED, its rows skipped", async () => {
    const held = await postJson(
      d.as.ops,
      usdRows(1, () => "13000.00"),
    );
    expect(held.status).toBe(202);
    // Two hours on: the sweep that runs every half minute finds it due (the sessions, moved too, would end).
    expect(await expireDue(d.app.runtime, new Date(d.app.clock.now() + 121 * 60_000))).toBeGreaterThanOrEqual(1);
    expect((await d.as.ops.call("GET", `${BATCHES}/${held.body.batch.id}`)).body.batch).toMatchObject({
      status: "EXPIRED",
      counts: { skipped: 1 },
    });
  });

  it("pushes each step on /api/events (event batch, without its rows) to every reader's stream", async () => {
    const stream: OpenStream = await openStream(d.target, d.as.viewer.cookie());
    try {
      expect(stream.status).toBe(200);
      await eventually(async () => (stream.text().includes("retry:") ? true : undefined), 5_000, "retry line");
      const res = await postJson(d.as.ops, usdRows(2));
      expect(res.status).toBe(201);
      const id = res.body.batch.id;
      const mine = (status: string) => (e: { event: string; data: any }) =>
        e.event === "batch" && e.data.id === id && e.data.status === status;
      const first = await stream.next(mine("SENDING"));
      expect(first.data).not.toHaveProperty("rows");
      const done = await stream.next(mine("COMPLETED"), 20_000);
      expect(done.data.counts).toEqual({ waiting: 0, sent: 2, failed: 0, skipped: 0 });
    } finally {
      stream.close();
    }
  });

  it("the preview reads the file as the create would, writing nothing; results.csv lists each row's outcome", async () => {
    const ref = newRef("preview");
    const csv = `from_profile,to_profile,asset,amount\nTreasury,Settlement,USD,5.00\nTreasury,Settlement,USD,oops`;
    const bad = await rawCall(d.target, "POST", `${BATCHES}/preview?ref_id=${ref}`, {
      body: csv,
      headers: { "Content-Type": "text/csv", Cookie: d.as.ops.cookie(), Origin: d.url },
    });
    expect(bad.status).toBe(200);
    expect(bad.body.preview).toMatchObject({ outcome: null, errors: [{ row: 2, field: "amount" }] });
    const good = await rawCall(d.target, "POST", `${BATCHES}/preview?ref_id=${ref}`, {
      body: csv.replace("oops", "6.00"),
      headers: { "Content-Type": "text/csv", Cookie: d.as.ops.cookie(), Origin: d.url },
    });
    expect(good.body.preview).toMatchObject({
      outcome: "send",
      errors: [],
      totals: [{ asset: "USD", amount: "11", value_usd: "11" }],
      funds: [{ profile_id: TREASURY, asset: "USD", needed: "11" }],
    });
    expect(await listedRefs()).not.toContain(ref);
    const sent = await postCsv(d.as.ops, csv.replace("oops", "6.00"), ref);
    expect(sent.status).toBe(201);
    await settled(sent.body.batch.id);
    const file = await rawCall(d.target, "GET", `${BATCHES}/${sent.body.batch.id}/results.csv`, {
      headers: { Cookie: d.as.viewer.cookie() },
    });
    expect(file.status).toBe(200);
    const lines = String(file.body).trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      "row,from_profile_id,to_profile_id,asset,amount,ref_id,status,transfer_id,transfer_status,problem",
    );
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 7).join(","))).toEqual([
      `1,${TREASURY},${SETTLEMENT},USD,5.00,${ref}-1,SENT`,
      `2,${TREASURY},${SETTLEMENT},USD,6.00,${ref}-2,SENT`,
    ]);
  });
});
