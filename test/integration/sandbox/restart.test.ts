import { describe, expect, it } from "vitest";
import { MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, profileId } from "@/lib/sandbox/seed";
import { eventually } from "../../support/dashboard";
import { sandboxClient, startSandboxServer, testConfig } from "../../support/sandbox-server";

const TRADING = profileId("trading");
const TREASURY = profileId("treasury");

/** Everything a client can read, to compare before and after a restart. */
async function snapshot(api: ReturnType<typeof sandboxClient>, base: string) {
  const balances = await Promise.all([TRADING, TREASURY].map((p) => api.call("GET", `/profiles/${p}/balances`)));
  return {
    orders: (await api.call("GET", "/orders?limit=1000")).body.items,
    transfers: (await api.call("GET", "/transfer/transfers?limit=1000")).body.items,
    balances: balances.map((b) => b.body.items),
    book: await (await fetch(`${base}/sandbox/v2/markets/ETHUSD/order-book`)).json(),
  };
}

describe("durability", () => {
  it("keeps orders, books, balances, transfers and tokens across a restart", async () => {
    // Transfers stay PENDING across the restart, so the snapshots compare.
    const config = testConfig({ transferSettleMillis: 600_000 });
    const first = await startSandboxServer(config);
    const api = sandboxClient(first.url);
    const token = await api.getToken();
    first.runtime.run((ex) => {
      ex.submitOrder(MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, {
        market: "ETHUSD",
        type: "LIMIT",
        side: "SELL",
        price: "3000.00",
        base_amount: "2",
      });
      ex.processSubmitted();
    });
    await api.call("POST", `/profiles/${TRADING}/orders`, {
      market: "ETHUSD",
      side: "BUY",
      type: "LIMIT",
      price: "3000.00",
      base_amount: "0.5",
      ref_id: "fill-1",
      await_fill_millis: 1000,
    });
    await api.call("POST", `/profiles/${TRADING}/orders`, {
      market: "ETHUSD",
      side: "BUY",
      type: "LIMIT",
      price: "2500.00",
      base_amount: "1",
      ref_id: "rest-1",
      await_fill_millis: 50,
    });
    await api.call("POST", `/profiles/${TRADING}/orders`, {
      market: "ETHUSD",
      side: "SELL",
      type: "STOP_MARKET",
      stop_price: "2000.00",
      base_amount: "1",
      ref_id: "stop-1",
      await_fill_millis: 50,
    });
    await api.call("POST", "/transfer/internal", {
      from_profile_id: TREASURY,
      to_profile_id: TRADING,
      asset: "USD",
      amount: "99.99",
      ref_id: "t-1",
    });
    const before = await snapshot(api, first.url);
    expect(before.orders).toHaveLength(3);
    await first.close(true);

    const second = await startSandboxServer(config);
    try {
      const again = sandboxClient(second.url);
      expect(await snapshot(again, second.url)).toEqual(before);
      expect((await again.call("GET", "/profiles", undefined, token)).status).toBe(200);
      const reused = await again.call("POST", `/profiles/${TRADING}/orders`, {
        market: "ETHUSD",
        side: "BUY",
        type: "LIMIT",
        price: "1.00",
        base_amount: "1",
        ref_id: "rest-1",
      });
      expect(reused.status).toBe(409);
      const open = before.orders.find((o: { ref_id: string }) => o.ref_id === "rest-1");
      expect((await again.call("DELETE", `/profiles/${TRADING}/orders/${open.id}`)).status).toBe(200);
      await eventually(async () => {
        const o = await again.call("GET", `/profiles/${TRADING}/orders/${open.id}`);
        return o.body.status === "CANCELLED" ? true : undefined;
      });
    } finally {
      await second.close();
    }
  });
});
