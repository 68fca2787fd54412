import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECENT_TRADES } from "@/lib/sandbox/engine/stats";
import { DEMO_CUSTOMER_ID, MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, profileId } from "@/lib/sandbox/seed";
import type { Market } from "@/lib/spec";
import { sandboxClient, startSandboxServer, type SandboxServer } from "../../support/sandbox-server";

let server: SandboxServer;
let api: ReturnType<typeof sandboxClient>;
const TRADING = profileId("trading");

beforeAll(async () => {
  server = await startSandboxServer();
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

/** A resting quote from the house market maker, so the demo customer has someone to trade with. */
function houseQuote(market: Market, side: "BUY" | "SELL", price: string, base_amount: string) {
  server.runtime.run((ex) => {
    ex.submitOrder(MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, {
      market,
      type: "LIMIT",
      side,
      price,
      base_amount,
    });
    ex.processSubmitted();
  });
}

/** A market sell of the demo customer's, filled at once against the house's bids. */
async function sell(market: Market, base_amount: string) {
  const res = await api.call("POST", `/profiles/${TRADING}/orders`, {
    market,
    side: "SELL",
    type: "MARKET",
    base_amount,
    await_fill_millis: 2000,
  });
  expect(res.body.status).toBe("FILLED");
}

const recent = async (market: string) => {
  const res = await fetch(`${server.url}/sandbox/v2/markets/${market}/recent-executions`);
  return { status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as any };
};

describe("GET /markets/{market}/recent-executions", () => {
  it("is public market data, empty before the first trade", async () => {
    expect(await recent("UNIUSD")).toEqual({ status: 200, type: "application/json", body: { items: [] } });
  });

  it("lists each trade once, newest first, with its price, amount, time and match number", async () => {
    houseQuote("LINKUSD", "BUY", "15.00", "2");
    houseQuote("LINKUSD", "BUY", "14.50", "5");
    const before = Date.now();
    await sell("LINKUSD", "3");
    const { body } = await recent("LINKUSD");
    expect(body.items).toEqual([
      { match_number: expect.any(String), price: "14.5", amount: "1", executed_at: expect.any(String) },
      { match_number: expect.any(String), price: "15", amount: "2", executed_at: expect.any(String) },
    ]);
    // Alphanumeric, as the service's are: not numbers, compared as strings, newer after older.
    const [newer, older] = body.items.map((i: { match_number: string }) => i.match_number);
    for (const n of [newer, older]) expect(n).toMatch(/^[0-9A-Z]{12}$/);
    expect(body.items.some((i: { match_number: string }) => Number.isNaN(Number(i.match_number)))).toBe(true);
    expect(newer > older).toBe(true);
    for (const item of body.items) {
      expect(item.executed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(item.executed_at)).toBeGreaterThanOrEqual(before - 1000);
    }
    // Another market's trades are its own.
    expect((await recent("UNIUSD")).body.items).toEqual([]);
  });

  it(`keeps the latest ${RECENT_TRADES} trades`, async () => {
    houseQuote("AAVEUSD", "BUY", "90.00", "1000");
    server.runtime.run((ex) => {
      for (let i = 0; i < RECENT_TRADES + 5; i++) {
        ex.submitOrder(DEMO_CUSTOMER_ID, TRADING, {
          market: "AAVEUSD",
          type: "MARKET",
          side: "SELL",
          base_amount: "0.01",
        });
      }
      ex.processSubmitted();
    });
    const { body } = await recent("AAVEUSD");
    expect(body.items).toHaveLength(RECENT_TRADES);
    const numbers = body.items.map((i: { match_number: string }) => i.match_number);
    expect(new Set(numbers).size).toBe(RECENT_TRADES);
    expect([...numbers].sort().reverse()).toEqual(numbers);
  });

  it("refuses a market the service does not list", async () => {
    const res = await recent("DOGEUSD");
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^application\/problem\+json/);
  });
});
