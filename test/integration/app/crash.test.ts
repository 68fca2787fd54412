import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventually,
  newRef,
  SETTLEMENT,
  smallOrder,
  smallTransfer,
  startDashboard,
  TRADING,
  TREASURY,
  type OwnDashboard,
  type Database,
  type JournalItem,
} from "../../support/dashboard";

/**
 * `kill -9` in the middle of 200 creates (orders and transfers, all in flight at once), then a
 * restart on the same data: nothing lost, nothing duplicated, nothing left pending. Every create
 * is then sent again with its ref_id, as a person retrying would: each ends as exactly one
 * record at the service and one succeeded journal entry.
 */

const COUNT = 200;

interface Create {
  ref: string;
  kind: "order" | "transfer";
  send: () => Promise<{ status: number }>;
}

/** Half orders, half transfers; each with an amount of its own, so none is asked about as a repeat. */
function creates(d: OwnDashboard): Create[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const ref = newRef("crash");
    const cents = String(100 + i);
    if (i % 2) {
      const body = smallOrder(ref, { base_amount: `0.${cents.padStart(4, "0")}` });
      return { ref, kind: "order", send: () => d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body) };
    }
    const body = smallTransfer(ref, { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, amount: `1.${cents}` });
    return { ref, kind: "transfer", send: () => d.as.ops.call("POST", "/api/v2/transfer/internal", body) };
  });
}

/** How many records the service holds for this create: orders, or transfers counted by their DEBIT leg. */
async function heldByService(d: OwnDashboard, c: Create): Promise<number> {
  if (c.kind === "order") return (await d.sandboxOrders(c.ref)).length;
  return (await d.sandboxTransfers(c.ref)).filter((t) => t.direction === "DEBIT").length;
}

/** `check` for every create, twenty at a time. */
async function forEach(all: Create[], check: (c: Create) => Promise<void>) {
  for (let i = 0; i < all.length; i += 20) await Promise.all(all.slice(i, i + 20).map(check));
}

describe.each<Database>(["sqlite", "postgres"])(`kill -9 during ${COUNT} creates on %s`, (database) => {
  let d: OwnDashboard;
  beforeAll(async () => {
    // Its own server, not the shared one: kills the app. The burst's creates queue for the
    // machine's cores (other files run meanwhile): given time enough to reach the service.
    d = await startDashboard({ database, env: { SERVICE_TIMEOUT_MS: "10000" } });
  });
  afterAll(() => d?.dispose());

  it("loses, duplicates and leaves pending nothing; a retry of each makes exactly one record", async () => {
    const all = creates(d);
    const sentBefore = d.proxy.requests.length;
    const answers = all.map((c) =>
      c.send().then(
        (r) => r.status,
        () => "killed" as const,
      ),
    );
    // Kill once some creates have reached the service and others have not.
    await eventually(
      async () =>
        d.proxy.requests.slice(sentBefore).filter((r) => r.method === "POST").length >= COUNT / 4 || undefined,
      60_000,
      "a quarter of the creates to reach the service",
    );
    await d.restart("SIGKILL");
    const before = await Promise.all(answers);
    expect(before).toContain("killed");

    // Reconciliation at start settles every entry the kill left pending.
    await eventually(
      async () => {
        const res = await d.as.admin.call("GET", "/api/activity?status=pending&limit=200");
        return (res.body.items as JournalItem[]).some((e) => e.ref_id.startsWith("crash-")) ? undefined : true;
      },
      60_000,
      "no create left pending",
    );

    await forEach(all, async (c) => {
      const i = all.indexOf(c);
      const entries = await d.journal(c.ref);
      const held = await heldByService(d, c);
      expect(entries.length, c.ref).toBeLessThanOrEqual(1);
      expect(held, `${c.ref} made at most once`).toBeLessThanOrEqual(1);
      const entry = entries[0];
      // Journaled before it is sent: no entry means the service never saw it.
      if (!entry) expect(held, `${c.ref} sent without a journal entry`).toBe(0);
      else if (entry.status === "succeeded") expect(held, `${c.ref} succeeded`).toBe(1);
      else expect({ status: entry.status, held }, c.ref).toEqual({ status: "failed", held: 0 });
      if (before[i] === 200) expect(entry?.status, `${c.ref} answered 200`).toBe("succeeded");
    });

    // Each sent again with its ref_id: one record and one succeeded entry, whatever happened before.
    const retried: (number | string)[] = [];
    await forEach(all, async (c) => void retried.push((await c.send()).status));
    expect(retried.filter((s) => s !== 200)).toEqual([]);
    await forEach(all, async (c) => {
      expect(await heldByService(d, c), c.ref).toBe(1);
      expect(
        (await d.journal(c.ref)).map((e) => e.status),
        c.ref,
      ).toEqual(["succeeded"]);
    });
  }, 300_000);
});
