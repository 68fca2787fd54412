import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventually,
  expectProblem,
  newRef,
  SERVICE_TIMEOUT_MS,
  SETTLEMENT,
  smallOrder,
  smallTransfer,
  inProcessDashboard,
  TRADING,
  TREASURY,
  type InProcessDashboard,
  type JournalItem,
  sandboxTurn,
} from "../support/dashboard";
import type { Match } from "../support/faults";
import { byName, parseCsv } from "../support/csv";

/**
 * The tables' own route handlers, in process: lists the back end walks across the service's
 * pages (GET /api/orders, GET /api/transfers), the streamed CSV exports, the activity filters,
 * and cancels in the journal. "Sent" is read off the faults in front of the sandbox, which see
 * every call to the service.
 */

let d: InProcessDashboard;
/** The orders placed by the trader, oldest first: four SELLs, then thirty BUYs. */
const placed: { id: string; side: string; base_amount: string; ref_id: string }[] = [];
const SELL_AMOUNTS = ["0.0100", "0.0200", "0.0300", "0.0400"];
/** A ref_id a spreadsheet would run as a formula. */
const FORMULA_REF = "=1+2";

beforeAll(async () => {
  // A runtime of its own: exact counts of the orders it placed.
  d = await inProcessDashboard();
  const place = async (body: Record<string, unknown>) => {
    const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    placed.push(res.body);
  };
  // The SELLs first: newest first, they sit on the second page of 25.
  for (const base_amount of SELL_AMOUNTS) {
    await place(smallOrder(newRef("sell"), { side: "SELL", price: "9000.00", base_amount }));
  }
  for (let i = 1; i <= 30; i++) {
    await place(smallOrder(i === 30 ? FORMULA_REF : newRef("buy"), { base_amount: `0.${String(i).padStart(3, "0")}` }));
  }
});
afterAll(() => d?.dispose());

/** Service calls (token requests aside) made while `run` ran, with their query strings. */
async function sentDuring<T>(run: () => Promise<T>) {
  const mark = d.proxy.requests.length;
  const result = await run();
  const sent = d.proxy.requests
    .slice(mark)
    .filter((r) => !r.path.endsWith("/oauth2/token"))
    .map((r) => ({ call: `${r.method} ${r.path}`, query: new URLSearchParams(r.search) }));
  return { result, sent };
}

async function csvOf(path: string, who: "viewer" | "admin" = "viewer") {
  const res = await d.target.fetch!(`${d.url}${path}`, { headers: { Cookie: d.as[who].cookie() } });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return { res, rows: parseCsv(text) };
}

describe("GET /api/orders: filters across every page", () => {
  it("finds the four SELL orders that sit on page 2, not in the 25 loaded", async () => {
    const page1 = await d.as.viewer.call("GET", "/api/orders?limit=25");
    expect(page1.status).toBe(200);
    expect(page1.body.items.filter((o: { side: string }) => o.side === "SELL")).toEqual([]);
    expect(page1.body.next_cursor).toEqual(expect.any(String));

    const { result: sells, sent } = await sentDuring(() => d.as.viewer.call("GET", "/api/orders?side=SELL"));
    expect(sells.status, JSON.stringify(sells.body)).toBe(200);
    expect(sells.body.items.map((o: { id: string }) => o.id)).toEqual(
      placed
        .filter((o) => o.side === "SELL")
        .map((o) => o.id)
        .reverse(),
    );
    expect(sells.body).toMatchObject({ next_cursor: null, scanned: 34, truncated: false, scan_cap: 5000 });
    // Side is not the service's filter: it is not sent; the walk reads the service's largest pages.
    expect(sent.map((s) => s.call)).toEqual(["GET /sandbox/v2/orders"]);
    expect(sent[0]!.query.has("side")).toBe(false);
    expect(sent[0]!.query.get("limit")).toBe("1000");
  });

  it("sends the service's own filters to the service", async () => {
    const { result, sent } = await sentDuring(() =>
      d.as.viewer.call("GET", `/api/orders?profile_id=${TRADING}&market=ETHUSD&status=OPEN&type=LIMIT&limit=5`),
    );
    expect(result.status).toBe(200);
    expect(Object.fromEntries(sent[0]!.query)).toEqual({
      profile_id: TRADING,
      market: "ETHUSD",
      status: "OPEN",
      limit: "1000",
    });
  });

  it("pages through a filtered list with its own cursor, each match once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: any } = await d.as.viewer.call(
        "GET",
        `/api/orders?side=BUY&limit=7${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const o of res.body.items) expect(o.side).toBe("BUY");
      seen.push(...res.body.items.map((o: { id: string }) => o.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(
      placed
        .filter((o) => o.side === "BUY")
        .map((o) => o.id)
        .reverse(),
    );
  });

  it("sorts by amount within one market, across every page", async () => {
    const res = await d.as.viewer.call("GET", "/api/orders?market=ETHUSD&sort=amount&dir=desc&limit=3");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The largest amounts of all 34, though they were placed first and list last.
    // Equal amounts keep the service's order: the newer 0.030 before the older 0.0300.
    expect(res.body.items.map((o: { base_amount: string }) => o.base_amount)).toEqual(["0.0400", "0.030", "0.0300"]);
    const next = await d.as.viewer.call(
      "GET",
      `/api/orders?market=ETHUSD&sort=amount&dir=desc&limit=3&cursor=${res.body.next_cursor}`,
    );
    expect(next.body.items.map((o: { base_amount: string }) => o.base_amount)).toEqual(["0.029", "0.028", "0.027"]);
  });

  it.each([
    ["/api/orders?side=SIDEWAYS", "side"],
    ["/api/orders?type=ICEBERG", "type"],
    ["/api/orders?market=DOGEUSD", "market"],
    ["/api/orders?status=LOST", "status"],
    ["/api/orders?profile_id=a%2Fb", "profile_id"],
    ["/api/orders?sort=amount", "sort"],
    ["/api/orders?market=ETHUSD&sort=amount&dir=up", "dir"],
    ["/api/orders?limit=0", "limit"],
    ["/api/orders?limit=201", "limit"],
    ["/api/orders?cursor=not-a-cursor", "cursor"],
    ["/api/orders/export.csv?side=both", "side"],
    ["/api/orders/export.csv?cursor=x", "cursor"],
    ["/api/transfers?asset=DOGE", "asset"],
    ["/api/transfers?from=yesterday", "from"],
    ["/api/transfers?to=2026-11-23", "to"],
    ["/api/transfers?statuses=LOST", "statuses.0"],
    ["/api/transfers?sort=amount", "sort"],
    ["/api/transfers/export.csv?type=GIFT", "type"],
    ["/api/activity?from=2026-13-01T00:00:00Z", "from"],
    ["/api/activity?kind=refund", "kind"],
    ["/api/activity/export.csv?to=tomorrow", "to"],
    ["/api/activity/export.csv?status=lost", "status"],
  ])("%s: 400 naming %s, nothing sent", async (path, field) => {
    const { result, sent } = await sentDuring(() => d.as.viewer.call("GET", path));
    const p = expectProblem(result, 400);
    expect(p.meta.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    expect(p.detail).toContain(field);
    expect(sent).toEqual([]);
  });

  it("refuses a cursor issued for other filters", async () => {
    const first = await d.as.viewer.call("GET", "/api/orders?side=BUY&limit=5");
    const other = await d.as.viewer.call("GET", `/api/orders?side=SELL&limit=5&cursor=${first.body.next_cursor}`);
    expect(expectProblem(other, 400).detail).toMatch(/cursor: .*other filters/);
  });
});

describe("GET /api/orders/export.csv: every matching row, streamed", () => {
  it("exports all 34 orders, not the 25 of a page, amounts exactly as sent, times in ISO UTC", async () => {
    const { res, rows } = await csvOf(`/api/orders/export.csv?profile_id=${TRADING}`);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="orders-\d{8}T\d{6}Z\.csv"$/);
    const orders = byName(rows);
    expect(orders).toHaveLength(34);
    expect(orders.map((o) => o.id)).toEqual(placed.map((o) => o.id).reverse());
    const sells = orders.filter((o) => o.side === "SELL");
    expect(sells.map((o) => o.base_amount).sort()).toEqual(SELL_AMOUNTS);
    for (const o of orders) {
      expect(o.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(o).toMatchObject({ profile: "Trading", submitted_by: "trader@example.com", submitted_by_role: "trader" });
    }
  });

  it("applies side while walking, and neutralises a cell a spreadsheet would run", async () => {
    const { rows } = await csvOf("/api/orders/export.csv?side=SELL");
    expect(byName(rows).map((o) => o.side)).toEqual(["SELL", "SELL", "SELL", "SELL"]);
    const { rows: all } = await csvOf("/api/orders/export.csv?market=ETHUSD&side=BUY");
    expect(byName(all).find((o) => o.id === placed[33]!.id)!.ref_id).toBe(`'${FORMULA_REF}`);
  });

  it("streams an export longer than one page of the service as its pages are read", async () => {
    // 1,050 orders of the Treasury profile, straight at the service.
    const refs = Array.from({ length: 1050 }, () => newRef("bulk"));
    for (let i = 0; i < refs.length; i += 75) {
      const batch = refs
        .slice(i, i + 75)
        .map((ref) => d.sandbox.call("POST", `/profiles/${TREASURY}/orders`, smallOrder(ref)));
      for (const res of await Promise.all(batch)) expect(res.status).toBe(200);
    }
    // Each page of the service answers a second late, on the runtime's clock: a streamed export
    // has sent the first page's rows while the second is still being read.
    const orderPages: Match = { method: "GET", path: "/sandbox/v2/orders" };
    d.proxy.fail(orderPages, { kind: "delay", ms: 1000 }, 2);
    const { result, sent } = await sentDuring(async () => {
      const mark = d.proxy.requests.length;
      let text = "";
      let firstAt = 0;
      const reading = (async () => {
        const res = await d.target.fetch!(`${d.url}/api/orders/export.csv?profile_id=${TREASURY}`, {
          headers: { Cookie: d.as.viewer.cookie() },
        });
        expect(res.headers.get("content-length")).toBeNull();
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        for (let step = await reader.read(); !step.done; step = await reader.read()) {
          firstAt ||= d.app.clock.now();
          text += decoder.decode(step.value, { stream: true });
        }
        return { text, firstAt, doneAt: d.app.clock.now() };
      })();
      // The first page's second passes; the second page is asked for, and held while its second has not.
      await d.proxy.waitFor(orderPages, 1, { since: mark });
      d.app.clock.advance(1000);
      await d.proxy.waitFor(orderPages, 2, { since: mark });
      // The first page's rows (and the header) arrive meanwhile.
      await expect.poll(() => text.split("\r\n").length - 1).toBeGreaterThanOrEqual(1 + 1000);
      expect(d.proxy.requests.slice(mark).filter((r) => r.path === orderPages.path && r.forwarded)).toHaveLength(1);
      d.app.clock.advance(1000);
      return reading;
    });
    d.proxy.clearFaults();
    expect(result.doneAt - result.firstAt).toBeGreaterThan(700);
    const rows = parseCsv(result.text);
    expect(rows).toHaveLength(1 + 1050);
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(1050);
    const pages = sent.filter((s) => s.call === "GET /sandbox/v2/orders");
    expect(pages.map((p) => [p.query.get("limit"), p.query.has("page_cursor")])).toEqual([
      ["1000", false],
      ["1000", true],
    ]);
  }, 120_000);
});

describe("GET /api/transfers and its CSV", () => {
  const made: Record<string, string> = {};
  let before = "";
  beforeAll(async () => {
    before = new Date(d.app.clock.now()).toISOString();
    // The controls value a BTC transfer at BTCUSD's price: rest a bid there, as no market maker runs.
    const bid = await d.sandbox.call(
      "POST",
      `/profiles/${TREASURY}/orders`,
      smallOrder(newRef("bid"), { market: "BTCUSD", price: "60000.00", base_amount: "0.0001" }),
    );
    expect(bid.status, JSON.stringify(bid.body)).toBe(200);
    // Rested on the sandbox's next turn: in process nothing else gives it one before the ticker is read.
    await sandboxTurn();
    for (const [asset, amount] of [
      ["USD", "12.50"],
      ["BTC", "0.00100000"],
    ] as const) {
      const res = await d.as.ops.call(
        "POST",
        "/api/v2/transfer/internal",
        smallTransfer(newRef("t"), { asset, amount }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      made[asset] = res.body.group_id;
    }
  });

  it("applies asset while walking; sends profiles with the date range only, statuses and type applied to the pages read", async () => {
    const btc = await d.as.viewer.call("GET", "/api/transfers?asset=BTC");
    expect(btc.status, JSON.stringify(btc.body)).toBe(200);
    const groups = new Set(btc.body.items.map((t: { group_id?: string }) => t.group_id));
    expect(groups.has(made.BTC)).toBe(true);
    expect(groups.has(made.USD)).toBe(false);
    for (const t of btc.body.items) expect(t.asset).toBe("BTC");

    const { result, sent } = await sentDuring(() =>
      d.as.viewer.call(
        "GET",
        `/api/transfers?profile_ids=${SETTLEMENT}&statuses=PENDING&statuses=COMPLETED&type=INTERNAL_TRANSFER_CREDIT&from=${before}&to=2100-01-01T00:00:00Z`,
      ),
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.items.map((t: { group_id: string }) => t.group_id).sort()).toEqual([made.USD, made.BTC].sort());
    // List Transfers takes profile_ids "combined with created_at.* or updated_at.* filtering options only".
    const lists = sent.filter((s) => s.call === "GET /sandbox/v2/transfer/transfers");
    expect(lists).toHaveLength(1);
    const q = lists[0]!.query;
    expect([...new Set(q.keys())].sort()).toEqual(["created_at.gte", "created_at.lt", "limit", "profile_ids"]);
    expect(q.getAll("profile_ids")).toEqual([SETTLEMENT]);
    expect([q.get("created_at.gte"), q.get("created_at.lt")]).toEqual([before, "2100-01-01T00:00:00Z"]);
    // The footer's "matched N of M read": every Settlement leg since `before` read, the credits matched.
    expect(result.body).toMatchObject({ walked: true, truncated: false });
    expect(result.body.scanned).toBeGreaterThanOrEqual(result.body.items.length);

    const later = await d.as.viewer.call("GET", "/api/transfers?from=2100-01-01T00:00:00Z");
    expect(later.body.items).toEqual([]);
  });

  it("refuses a combination List Transfers refuses before sending it, naming the field", async () => {
    const { result, sent } = await sentDuring(() =>
      d.as.viewer.call("GET", `/api/v2/transfer/transfers?profile_ids=${SETTLEMENT}&statuses=PENDING`),
    );
    expect(expectProblem(result, 400).meta.errors[0].field).toBe("profile_ids");
    expect(sent).toEqual([]);
  });

  it("exports each leg, who initiated it on a CREDIT leg whose DEBIT the filter left out", async () => {
    const { rows } = await csvOf(`/api/transfers/export.csv?profile_ids=${SETTLEMENT}&type=INTERNAL_TRANSFER_CREDIT`);
    const legs = byName(rows);
    const btc = legs.find((l) => l.group_id === made.BTC)!;
    expect(btc).toMatchObject({
      direction: "CREDIT",
      profile: "Settlement",
      asset: "BTC",
      amount: "0.001",
      initiated_by: "ops@example.com",
      initiated_by_role: "ops",
    });
    expect(legs.every((l) => l.direction === "CREDIT")).toBe(true);
  });
});

describe("activity: by any part of the user's email, by date, as CSV; cancels journaled", () => {
  it("finds a user by any part of the email, in any case", async () => {
    const list = async (q: string) => {
      const res = await d.as.admin.call("GET", `/api/activity?limit=200&${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return new Set(res.body.items.map((e: JournalItem) => e.user_email));
    };
    expect(await list("user=TRAD")).toEqual(new Set(["trader@example.com"]));
    expect(await list("user=ops@")).toEqual(new Set(["ops@example.com"]));
    expect(await list("user=EXAMPLE.COM")).toEqual(new Set(["trader@example.com", "ops@example.com"]));
    expect(await list("user=nobody")).toEqual(new Set());
  });

  it("filters by a date range: from inclusive, to exclusive", async () => {
    const all = (await d.as.admin.call("GET", "/api/activity?limit=200")).body.items as { created_at: string }[];
    const newest = all[0]!.created_at;
    const upTo = await d.as.admin.call("GET", `/api/activity?limit=200&to=${newest}`);
    expect(upTo.body.items).toHaveLength(all.length - all.filter((e) => e.created_at === newest).length);
    const from = await d.as.admin.call("GET", `/api/activity?limit=200&from=${newest}`);
    expect(from.body.items.every((e: { created_at: string }) => e.created_at === newest)).toBe(true);
    // A time with another offset is the same instant.
    const offset = await d.as.admin.call("GET", "/api/activity?limit=5&from=2100-01-01T01:00:00%2B01:00");
    expect(offset.body.items).toEqual([]);
  });

  it("exports every matching entry as CSV, past one page of the journal", async () => {
    const { rows } = await csvOf("/api/activity/export.csv?user=trader&kind=order", "admin");
    const entries = byName(rows);
    expect(entries).toHaveLength(34);
    expect(new Set(entries.map((e) => e.user_email))).toEqual(new Set(["trader@example.com"]));
    const sell = entries.find((e) => e.order_id === placed[0]!.id)!;
    expect(sell).toMatchObject({ action: "order", side: "SELL", market: "ETHUSD", amount: "0.0100", price: "9000.00" });
  });

  it("journals a cancel before it is sent and completes it with the service's answer", async () => {
    const order = placed[5]!;
    const res = await d.as.trader.call("DELETE", `/api/v2/profiles/${TRADING}/orders/${order.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cancels = (await d.as.admin.call("GET", "/api/activity?kind=cancel")).body.items as JournalItem[];
    expect(cancels[0]).toMatchObject({
      kind: "cancel",
      user_email: "trader@example.com",
      user_role: "trader",
      status: "succeeded",
      http_status: 200,
      result_id: order.id,
      request: { order_id: order.id, profile_id: TRADING, order: { side: "BUY", market: "ETHUSD" } },
    });

    const missing = await d.as.trader.call("DELETE", `/api/v2/profiles/${TRADING}/orders/no-such-order`);
    expectProblem(missing, 404);
    const [failed] = (await d.as.admin.call("GET", "/api/activity?kind=cancel&status=failed")).body
      .items as JournalItem[];
    expect(failed).toMatchObject({ status: "failed", http_status: 404, request: { order_id: "no-such-order" } });
    expect(failed!.problem).toMatchObject({ status: 404 });
  });

  it("shows a cancel pending while the service has not answered, then failed with the time-out", async () => {
    const order = placed[6]!;
    d.proxy.fail({ method: "DELETE", path: `/sandbox/v2/profiles/${TRADING}/orders/${order.id}` }, { kind: "hold" }, 1);
    const answer = d.as.trader.call("DELETE", `/api/v2/profiles/${TRADING}/orders/${order.id}`);
    const pending = await eventually(async () => {
      const items = (await d.as.admin.call("GET", "/api/activity?kind=cancel&status=pending")).body
        .items as JournalItem[];
      return items.find((e) => e.request.order_id === order.id);
    }, SERVICE_TIMEOUT_MS);
    expect(pending).toMatchObject({ status: "pending", http_status: null });
    expectProblem(await answer, 504);
    const items = (await d.as.admin.call("GET", "/api/activity?kind=cancel")).body.items as JournalItem[];
    expect(items.find((e) => e.id === pending.id)).toMatchObject({ status: "failed", http_status: 504 });
  });
});
