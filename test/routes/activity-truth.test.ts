import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESULT_WORDS } from "@/lib/shared/activity-outcome";
import {
  eventually,
  expectProblem,
  inProcessDashboard,
  newRef,
  smallOrder,
  smallTransfer,
  TRADING,
  TREASURY,
  type InProcessDashboard,
  type JournalItem,
} from "../support/dashboard";
import { RESERVE } from "../support/requests";

/**
 * GET /api/activity and its CSV as the desk reads them (issue 26): a post-only order the service
 * took and then REJECTED, and a transfer refused for lack of funds, with the profile named by
 * its nickname in the service's own words. The journal's status stays the API's contract.
 */

type ActivityItem = JournalItem & { record_status_now?: string };

let d: InProcessDashboard;

beforeAll(async () => {
  d = await inProcessDashboard();
});
afterAll(() => d?.dispose());

const activity = async (query: string): Promise<ActivityItem[]> => {
  const res = await d.as.admin.call("GET", `/api/activity?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items;
};

/** Rests a bid and an ask of 100 on `market` straight at the sandbox, from the treasury: a book, and a price. */
async function quote(market: string, bid: string, ask: string) {
  for (const [side, price] of [
    ["BUY", bid],
    ["SELL", ask],
  ] as const) {
    const body = { market, side, type: "LIMIT", price, base_amount: "100", ref_id: newRef("book") };
    const res = await d.sandbox.call("POST", `/profiles/${TREASURY}/orders`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** A CSV's rows as objects by its header's names (quoted cells unquoted). */
async function csvEntries(query: string): Promise<Record<string, string>[]> {
  const res = await d.target.fetch!(`${d.url}/api/activity/export.csv?${query}`, {
    headers: { Cookie: d.as.admin.cookie() },
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const rows = text
    .split("\r\n")
    .filter(Boolean)
    .map((line) =>
      line
        .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
        .map((c) => c.replace(/,$/, "").replace(/^"|"$/g, "").replace(/""/g, '"')),
    );
  return rows.slice(1).map((r) => Object.fromEntries(rows[0]!.map((h, i) => [h, r[i]!])));
}

describe("GET /api/activity: what came of each request, in the desk's words", () => {
  it("a post-only order that would cross: answered SUBMITTED, listed with the service's REJECTED now", async () => {
    await quote("ETHUSD", "2990.00", "3010.00");
    const ref = newRef("post-only");
    const res = await d.as.trader.call(
      "POST",
      `/api/v2/profiles/${TRADING}/orders`,
      // At the ask: it would take, and a post-only order must not.
      smallOrder(ref, { type: "POST_ONLY_LIMIT", price: "3010.00" }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe("SUBMITTED");

    const entry = await eventually(
      async () => (await activity(`ref_ids=${ref}`)).find((e) => e.record_status_now === "REJECTED"),
      10_000,
      "the order's REJECTED in the activity",
    );
    // The journal's own fields as written: HTTP went well, and the record as answered.
    expect(entry).toMatchObject({ status: "succeeded", record: { status: "SUBMITTED" }, result_id: res.body.id });
    // The contract's filter still finds it by the journal's status.
    expect((await activity("status=succeeded&kind=order")).map((e) => e.ref_id)).toContain(ref);

    const row = (await csvEntries("kind=order&status=succeeded")).find((r) => r.ref_id === ref);
    expect(row).toMatchObject({
      ref_id: ref,
      status: "succeeded",
      result: RESULT_WORDS.rejected,
      record_status: "SUBMITTED",
      record_status_now: "REJECTED",
    });
    expect(row!.outcome).toMatch(/^Order rejected by the service/);
  });

  it("a transfer refused for lack of funds names the sending profile by nickname, in the API and the CSV", async () => {
    // A price to value it by; the operations reserve holds no LINK.
    await quote("LINKUSD", "7.90", "8.10");
    const ref = newRef("no-link");
    const res = await d.as.ops.call(
      "POST",
      "/api/v2/transfer/internal",
      smallTransfer(ref, { from_profile_id: RESERVE, to_profile_id: TREASURY, asset: "LINK", amount: "1" }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expectProblem(res, 403);
    // The service's own words carry the id; the dashboard's list names it.
    expect(res.body.detail).toContain(RESERVE);

    const [entry] = await activity(`ref_ids=${ref}`);
    expect(entry).toMatchObject({ status: "failed", problem: { title: "Insufficient Funds" } });
    expect(entry!.problem!.detail).toContain("Operations reserve");
    expect(entry!.problem!.detail).not.toContain(RESERVE);
    // Machines keep the id.
    expect((entry!.problem as { meta?: { profile_id?: string } }).meta?.profile_id).toBe(RESERVE);

    const row = (await csvEntries("kind=transfer&status=failed")).find((r) => r.ref_id === ref)!;
    expect(row).toMatchObject({ result: RESULT_WORDS.failed, profile: "Operations reserve" });
    expect(row.problem_detail).toContain("Operations reserve");
    expect(row.problem_detail).not.toContain(RESERVE);
  });

  it("lists the journal as answered when the service cannot say how its records stand now", async () => {
    const ref = newRef("resting");
    const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    d.proxy.fail({ method: "GET", path: "/sandbox/v2/orders" }, { kind: "status", status: 503 }, 1);
    const [entry] = await activity(`ref_ids=${ref}`);
    expect(entry).toMatchObject({ status: "succeeded", record: { status: "SUBMITTED" } });
    expect(entry!.record_status_now).toBeUndefined();
    expect(d.proxy.count({ method: "GET", path: "/sandbox/v2/orders" })).toBeGreaterThan(0);
    // Read again, the service answers: the order rests, OPEN.
    await eventually(
      async () => ((await activity(`ref_ids=${ref}`))[0]!.record_status_now === "OPEN" ? true : undefined),
      10_000,
      "the resting order's OPEN in the activity",
    );
  });
});
