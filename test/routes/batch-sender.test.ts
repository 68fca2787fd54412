import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBatchRows } from "@/lib/server/batches/send-rows";
import { stopBatchSender } from "@/lib/server/batches/sender";
import { batchOfId, insertBatch, moveBatch, rowsOfBatch, skipWaitingRows } from "@/lib/server/db/batches";
import { beginEntry, completeEntry, journalEntryOfRef } from "@/lib/server/db/journal";
import { reconcilePending } from "@/lib/server/reconcile";
import type { Match } from "../support/faults";
import { inProcessDashboard, SETTLEMENT, TREASURY, type Database, type InProcessDashboard } from "../support/dashboard";

/**
 * The batch sender, in process on each database: every row of a SENDING batch is sent once, in
 * the file's order, and what a crash left half done (a row journaled and sent but not settled, a
 * row settled in the journal only) is finished without sending anything twice. (The kill -9 of
 * a running app mid-batch is a test of the process: test/integration/process.)
 */

const TRANSFER: Match = { method: "POST", path: "/sandbox/v2/transfer/internal" };

describe.each<Database>(["sqlite", "postgres"])("the batch sender on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    d = await inProcessDashboard({ database });
    // These tests drive sendBatchRows themselves: the runtime's own sender would race them for the rows.
    await stopBatchSender(d.app.runtime);
  });
  afterAll(async () => {
    await d?.dispose();
  });

  /** A SENDING batch of `n` rows of 1.xx USD from Treasury to Settlement, written as the create path writes it. */
  async function sendingBatch(n: number) {
    const rt = d.app.runtime;
    const id = randomUUID();
    const ref = `batch-${id}`;
    const at = new Date(rt.clock.now()).toISOString();
    const rows = Array.from({ length: n }, (_, i) => ({
      batch_id: id,
      row: i + 1,
      from_profile_id: TREASURY,
      to_profile_id: SETTLEMENT,
      asset: "USD",
      amount: `1.${String(i + 1).padStart(2, "0")}`,
      ref_id: `${ref}-${i + 1}`,
      metadata_json: null,
      value_usd: `1.${String(i + 1).padStart(2, "0")}`,
      status: "WAITING",
      transfer_id: null,
      transfer_status: null,
      problem_json: null,
    }));
    await insertBatch(
      rt.db,
      {
        id,
        ref_id: ref,
        status: "SENDING",
        requested_by: "ops@example.com",
        requested_name: "Oakley Ops",
        requested_role: "ops",
        created_at: at,
        updated_at: at,
        value_usd: "0",
        approval_id: null,
        rows_key: randomUUID(),
        cancelled_by: null,
      },
      rows,
    );
    return { id, rows };
  }

  const sentTo = () => d.proxy.requests.filter((r) => r.method === TRANSFER.method && r.path === TRANSFER.path);

  /**
   * A pending journal entry under `row`'s ref_id, as the sender writes it before the call (or,
   * with `by` and `amount`, another person's create that took the ref_id); its request.
   */
  async function journalRow(
    row: { ref_id: string; amount: string },
    { by = "ops", amount = row.amount }: { by?: "ops" | "admin"; amount?: string } = {},
  ) {
    const rt = d.app.runtime;
    const request = { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, asset: "USD", amount, ref_id: row.ref_id };
    const entry = await beginEntry(rt.db, {
      kind: "transfer",
      refId: row.ref_id,
      userEmail: `${by}@example.com`,
      userRole: by,
      profileId: TREASURY,
      toProfileId: SETTLEMENT,
      request,
      at: new Date(rt.clock.now()),
    });
    return { entry, request };
  }

  it("sends every row once, in the file's order, and completes the batch", async () => {
    const { id, rows } = await sendingBatch(5);
    const before = sentTo().length;
    const progress: string[] = [];
    await sendBatchRows(d.app.runtime, id, (b) => void progress.push(b.status));
    const settled = await rowsOfBatch(d.app.runtime.db, id);
    expect(settled.map((r) => r.status)).toEqual(rows.map(() => "SENT"));
    expect(settled.every((r) => r.transfer_id && r.transfer_status)).toBe(true);
    expect(sentTo().length - before, "one call per row").toBe(5);
    expect((await batchOfId(d.app.runtime.db, id))?.status).toBe("COMPLETED");
    expect(progress.at(-1)).toBe("COMPLETED");
  });

  it("after a crash between sending a row and settling it, settles it with the transfer the service made, sent once", async () => {
    const rt = d.app.runtime;
    const { id, rows } = await sendingBatch(2);
    const first = rows[0]!;
    // What the crash left: the row's journal entry pending, and the service holding its transfer.
    const { request } = await journalRow(first);
    const made = await rt.upstream.request({ method: "POST", path: "/transfer/internal", body: request });
    expect(made.status).toBe(200);
    await sendBatchRows(rt, id, () => undefined);
    const [row1, row2] = await rowsOfBatch(rt.db, id);
    expect(row1!.status).toBe("SENT");
    expect(row1!.transfer_id, "the transfer the service made before the crash").toBe((made.body as { id: string }).id);
    expect(row2!.status).toBe("SENT");
    const listed = await rt.upstream.request({
      method: "GET",
      path: "/transfer/transfers",
      query: { ref_ids: [first.ref_id] },
    });
    const debits = (listed.body as { items: { direction: string }[] }).items.filter((t) => t.direction === "DEBIT");
    expect(debits, "the service holds the row's transfer once").toHaveLength(1);
  });

  it("after a crash between journaling a row and sending it, the restart's reconciliation leaves the row to the sender, which sends it once", async () => {
    const rt = d.app.runtime;
    const { id, rows } = await sendingBatch(2);
    const first = rows[0]!;
    // What a kill -9 before the call left: the row's journal entry pending, nothing at the service.
    const { entry } = await journalRow(first);
    // The restart reconciles first; a pending entry nobody owns would be called "Not Sent" here.
    await reconcilePending(rt, new Date(rt.clock.now() + 1000));
    expect((await journalEntryOfRef(rt.db, "transfer", first.ref_id))?.status, "left to the sender").toBe("pending");
    const before = sentTo().length;
    await sendBatchRows(rt, id, () => undefined);
    expect((await rowsOfBatch(rt.db, id)).map((r) => r.status)).toEqual(["SENT", "SENT"]);
    expect(sentTo().length - before, "each row sent once").toBe(2);
    expect((await journalEntryOfRef(rt.db, "transfer", first.ref_id))?.id, "under its own entry").toBe(entry.id);
  });

  it("once the batch is no longer sending, a row's pending entry is the journal's to decide again", async () => {
    const rt = d.app.runtime;
    const { id, rows } = await sendingBatch(1);
    const only = rows[0]!;
    await journalRow(only);
    await skipWaitingRows(rt.db, id);
    await moveBatch(rt.db, id, ["SENDING"], "CANCELLED", new Date(rt.clock.now()));
    await reconcilePending(rt, new Date(rt.clock.now() + 1000));
    const entry = await journalEntryOfRef(rt.db, "transfer", only.ref_id);
    expect(entry?.status, "the service has no record of it: nothing was created").toBe("failed");
  });

  it("settles a row its journal entry already completed, without calling the service", async () => {
    const rt = d.app.runtime;
    const { id, rows } = await sendingBatch(1);
    const only = rows[0]!;
    const { entry } = await journalRow(only);
    const record = { id: randomUUID(), status: "COMPLETED" };
    await completeEntry(rt.db, entry.id, { status: "succeeded", httpStatus: 200, latencyMs: 1, record });
    const before = sentTo().length;
    await sendBatchRows(rt, id, () => undefined);
    const [row] = await rowsOfBatch(rt.db, id);
    expect(row).toMatchObject({ status: "SENT", transfer_id: record.id, transfer_status: "COMPLETED" });
    expect(sentTo().length - before, "nothing sent").toBe(0);
  });

  it("never takes another create's journal entry under a row's ref_id for the row's: the row fails, naming it, and nothing is sent", async () => {
    const rt = d.app.runtime;
    const { id, rows } = await sendingBatch(1);
    const only = rows[0]!;
    // A transfer of someone else's that took the row's ref_id in the instant the batch was written.
    await journalRow(only, { by: "admin", amount: "99.00" });
    const before = sentTo().length;
    await sendBatchRows(rt, id, () => undefined);
    const [row] = await rowsOfBatch(rt.db, id);
    expect(row).toMatchObject({ status: "FAILED", transfer_id: null });
    expect(JSON.parse(row!.problem_json!)).toMatchObject({ status: 409, meta: { ref_id: only.ref_id } });
    expect(sentTo().length - before, "nothing sent").toBe(0);
    expect((await batchOfId(rt.db, id))?.status).toBe("COMPLETED");
  });

  it("stops at a cancel: the rows not yet sent are skipped, never sent", async () => {
    const rt = d.app.runtime;
    const { id } = await sendingBatch(3);
    let seen = 0;
    await sendBatchRows(rt, id, async () => {
      seen += 1;
      // Cancelled once the first row is settled.
      if (seen === 1) {
        await moveBatch(rt.db, id, ["SENDING"], "CANCELLED", new Date(rt.clock.now()));
        await skipWaitingRows(rt.db, id);
      }
    });
    expect((await rowsOfBatch(rt.db, id)).map((r) => r.status)).toEqual(["SENT", "SKIPPED", "SKIPPED"]);
    expect((await batchOfId(rt.db, id))?.status).toBe("CANCELLED");
  });

  it("refuses a single transfer under a batch row's ref_id, sent or not: the row owns it", async () => {
    const { rows } = await sendingBatch(1);
    const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", {
      from_profile_id: TREASURY,
      to_profile_id: SETTLEMENT,
      asset: "USD",
      amount: "1.01",
      ref_id: rows[0]!.ref_id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.meta.errors[0].field).toBe("ref_id");
  });
});
