import { describe, expect, it } from "vitest";
import type { LiveEvent } from "@/lib/server/live/events";
import { Interests } from "@/lib/server/live/interests";
import { createWatcher, OFF_PAGE_PER_LOOK } from "@/lib/server/live/watcher";
import type { UpstreamRequest } from "@/lib/server/upstream/client";
import { servicePageOf } from "../../../support/service-lists";

const order = (id: string, status: string, filled = "0") => ({ id, status, profile_id: "p1", amount_filled: filled });

describe("watcher", () => {
  it("reads only what is watched, and publishes changes of orders, balances and tickers", async () => {
    let orders = [order("o1", "OPEN")];
    let bid = "100";
    const calls: string[] = [];
    const upstream = {
      async request(r: UpstreamRequest) {
        calls.push(r.path);
        const body =
          r.path === "/orders"
            ? { items: orders }
            : r.path === "/transfer/transfers"
              ? { items: [] }
              : r.path.endsWith("/balances")
                ? { items: [{ asset: "USD", available: "1", trading: "0" }] }
                : r.path.endsWith("/ticker")
                  ? { market: "BTCUSD", best_bid: { price: bid, amount: "1" } }
                  : r.path === "/profiles/p1/orders/o1"
                    ? order("o1", "FILLED", "1")
                    : null;
        return { status: body ? 200 : 404, body, headers: new Headers() };
      },
    };
    const interests = new Interests();
    const events: LiveEvent[] = [];
    const w = createWatcher({ upstream, watched: () => interests.watched(), publish: (e) => events.push(e) });
    const look = async () => {
      w.start();
      await new Promise((r) => setTimeout(r, 30));
      w.stop();
    };

    await look();
    expect(calls).toEqual([]); // nobody watches

    const close = interests.add({ profiles: ["p1"], markets: ["BTCUSD"] });
    await look();
    // The first look learns the orders; balances and ticker are sent as first seen.
    expect(events.map((e) => e.name).sort()).toEqual(["balances", "ticker"]);
    events.length = 0;

    orders = [order("o2", "OPEN"), order("o1", "OPEN", "0.5")];
    bid = "101";
    await look();
    const named = () => events.map((e) => `${e.name}:${(e.data as { id?: string }).id ?? e.topic}`).sort();
    expect(named()).toEqual(["order:o1", "order:o2"]);
    events.length = 0;
    // Balances and tickers are read every other look (orders and transfers each look).
    await look();
    expect(named()).toEqual(["ticker:BTCUSD"]);
    events.length = 0;

    // o1 leaves the lists: it is read on its own at the next look that reads them (every other one).
    orders = [order("o2", "OPEN")];
    await look();
    expect(calls).not.toContain("/profiles/p1/orders/o1");
    await look();
    expect(calls).toContain("/profiles/p1/orders/o1");
    expect(events.map((e) => (e.data as { status: string }).status)).toEqual(["FILLED"]);

    close();
    calls.length = 0;
    await look();
    expect(calls).toEqual([]);
  });
});

describe("the watcher's orders, whatever order List Orders answers in", () => {
  const HOUR = 3_600_000;
  const now = Date.now();
  /**
   * 150 orders of the last two hours, listed OLDEST first (nothing in the reference says newest
   * first); `resting` of them (from the 120th) still OPEN.
   */
  const history = (resting = 1) =>
    Array.from({ length: 150 }, (_, i) => ({
      ...order(`old-${String(i).padStart(3, "0")}`, i >= 120 && i < 120 + resting ? "OPEN" : "FILLED"),
      created_at: new Date(now - 2 * HOUR + i * 40_000).toISOString(),
    }));

  /** GET /orders with its documented filters: order_time.begin (inclusive), status, limit, page_cursor. */
  function ordersService(orders: ReturnType<typeof history>, { timeFilter = true } = {}) {
    const calls: UpstreamRequest[] = [];
    const upstream = {
      async request(r: UpstreamRequest) {
        calls.push(r);
        const q = r.query ?? {};
        if (r.path === "/orders") {
          if (!timeFilter && q["order_time.begin"] !== undefined)
            return { status: 400, body: { title: "Bad Request", status: 400 }, headers: new Headers() };
          const begin = q["order_time.begin"] === undefined ? -Infinity : Date.parse(String(q["order_time.begin"]));
          const listed = timeFilter ? orders : orders.toReversed();
          const body = servicePageOf(
            listed,
            q,
            (o) => Date.parse(o.created_at) >= begin && (q.status === undefined || o.status === q.status),
          );
          return { status: 200, body, headers: new Headers() };
        }
        if (r.path === "/transfer/transfers") return { status: 200, body: { items: [] }, headers: new Headers() };
        const one = orders.find((o) => r.path === `/profiles/p1/orders/${o.id}`);
        return { status: one ? 200 : 404, body: one ?? null, headers: new Headers() };
      },
    };
    return { calls, upstream };
  }

  async function watching(upstream: { request: (r: UpstreamRequest) => Promise<unknown> }) {
    const interests = new Interests();
    const events: LiveEvent[] = [];
    const w = createWatcher({
      upstream: upstream as never,
      watched: () => interests.watched(),
      publish: (e) => events.push(e),
      everyMs: 10,
    });
    interests.add({ profiles: [], markets: [] });
    w.start();
    const published = () => events.filter((e) => e.name === "order").map((e) => (e.data as { id: string }).id);
    return { w, published };
  }

  it("publishes an order placed now though the service lists it last, reading by order_time.begin", async () => {
    const orders = history();
    const s = ordersService(orders);
    const { w, published } = await watching(s.upstream);
    try {
      await expect.poll(() => s.calls.filter((c) => c.path === "/orders").length).toBeGreaterThan(2);
      orders.push({ ...order("new-one", "OPEN"), created_at: new Date().toISOString() });
      await expect.poll(published).toContain("new-one");
      const windowed = s.calls.filter((c) => c.path === "/orders" && c.query?.["order_time.begin"] !== undefined);
      expect(windowed.length).toBeGreaterThan(0);
      // RFC 3339 to the second, as List Orders documents it.
      expect(String(windowed.at(-1)!.query!["order_time.begin"])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    } finally {
      w.stop();
    }
  });

  it("follows an OPEN order older than the window to its fill: the OPEN list each look, then one read as it leaves it", async () => {
    const orders = history();
    const s = ordersService(orders);
    const { w, published } = await watching(s.upstream);
    try {
      await expect.poll(() => s.calls.some((c) => c.path === "/orders" && c.query?.status === "OPEN")).toBe(true);
      await expect.poll(() => s.calls.filter((c) => c.path === "/orders").length).toBeGreaterThan(3);
      orders[120] = { ...orders[120]!, status: "FILLED", amount_filled: "1" };
      await expect.poll(published).toContain("old-120");
      expect(s.calls.some((c) => c.path === "/profiles/p1/orders/old-120")).toBe(true);
    } finally {
      w.stop();
    }
  });

  it("a service that refuses order_time.begin is asked once, then its first page is followed", async () => {
    const orders = history();
    const s = ordersService(orders, { timeFilter: false });
    const { w, published } = await watching(s.upstream);
    try {
      await expect.poll(() => s.calls.filter((c) => c.path === "/orders").length).toBeGreaterThan(3);
      orders.push({ ...order("new-one", "OPEN"), created_at: new Date().toISOString() });
      await expect.poll(published).toContain("new-one");
      expect(s.calls.filter((c) => c.query?.["order_time.begin"] !== undefined)).toHaveLength(1);
    } finally {
      w.stop();
    }
  });

  /** The one-by-one reads of each look: those between one look's OPEN list and the next's. */
  const singlesPerLook = (calls: UpstreamRequest[]) => {
    const looks: number[] = [];
    for (const c of calls) {
      if (c.path === "/orders" && c.query?.status === "OPEN") looks.push(0);
      else if (c.path.startsWith("/profiles/") && looks.length) looks[looks.length - 1]!++;
    }
    return looks;
  };

  it("30 resting orders older than the window cost the OPEN list a look, not a read each; a partial fill still arrives", async () => {
    const orders = history(30);
    const s = ordersService(orders);
    const { w, published } = await watching(s.upstream);
    try {
      await expect.poll(() => singlesPerLook(s.calls).length).toBeGreaterThan(5);
      expect(singlesPerLook(s.calls).every((n) => n === 0)).toBe(true);
      orders[125] = { ...orders[125]!, amount_filled: "0.5" };
      await expect.poll(published).toContain("old-125");
      expect(s.calls.some((c) => c.path === "/profiles/p1/orders/old-125")).toBe(false);
    } finally {
      w.stop();
    }
  });

  it(`when 30 resting orders fill at once, a look reads at most ${OFF_PAGE_PER_LOOK} of them on their own, and every fill arrives`, async () => {
    const orders = history(30);
    const s = ordersService(orders);
    const { w, published } = await watching(s.upstream);
    try {
      await expect.poll(() => singlesPerLook(s.calls).length).toBeGreaterThan(2);
      for (let i = 120; i < 150; i++) orders[i] = { ...orders[i]!, status: "FILLED", amount_filled: "1" };
      await expect.poll(() => new Set(published()).size, { timeout: 5_000 }).toBe(30);
      expect(Math.max(...singlesPerLook(s.calls))).toBeLessThanOrEqual(OFF_PAGE_PER_LOOK);
    } finally {
      w.stop();
    }
  });
});

describe("the watcher's transfers", () => {
  const transfer = (id: string, status: string) => ({ id, status, profile_id: "p1" });

  it("follows a PENDING transfer off the newest page by the PENDING list, and pushes its completion", async () => {
    // The newest 100 transfers are complete; an older one is still pending.
    const transfers = [
      ...Array.from({ length: 100 }, (_, i) => transfer(`new-${i}`, "COMPLETED")),
      transfer("old-pending", "PENDING"),
    ];
    const calls: UpstreamRequest[] = [];
    const upstream = {
      async request(r: UpstreamRequest) {
        calls.push(r);
        const statuses = r.query?.statuses as string[] | undefined;
        const body =
          r.path === "/transfer/transfers"
            ? servicePageOf(transfers, r.query, (t) => !statuses || statuses.includes(t.status))
            : r.path === "/orders"
              ? { items: [] }
              : (transfers.find((t) => r.path === `/transfer/transfers/${t.id}`) ?? null);
        return { status: body ? 200 : 404, body, headers: new Headers() };
      },
    };
    const interests = new Interests();
    const events: LiveEvent[] = [];
    const w = createWatcher({
      upstream,
      watched: () => interests.watched(),
      publish: (e) => events.push(e),
      everyMs: 10,
    });
    interests.add({ profiles: [], markets: [] });
    w.start();
    try {
      const pendingReads = () => calls.filter((c) => (c.query?.statuses as string[] | undefined)?.includes("PENDING"));
      await expect.poll(() => pendingReads().length).toBeGreaterThan(3);
      expect(calls.some((c) => c.path === "/transfer/transfers/old-pending")).toBe(false);
      transfers[100] = transfer("old-pending", "COMPLETED");
      await expect
        .poll(() => events.filter((e) => e.name === "transfer").map((e) => (e.data as { id: string }).id))
        .toContain("old-pending");
    } finally {
      w.stop();
    }
  });
});
