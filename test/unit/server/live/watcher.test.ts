import { describe, expect, it } from "vitest";
import type { LiveEvent } from "@/lib/server/live/events";
import { Interests } from "@/lib/server/live/interests";
import { createWatcher } from "@/lib/server/live/watcher";
import type { UpstreamRequest } from "@/lib/server/upstream/client";

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

    // o1 falls off the newest page: it is read on its own until final.
    orders = [order("o2", "OPEN")];
    await look();
    expect(calls).toContain("/profiles/p1/orders/o1");
    expect(events.map((e) => (e.data as { status: string }).status)).toEqual(["FILLED"]);

    close();
    calls.length = 0;
    await look();
    expect(calls).toEqual([]);
  });
});
