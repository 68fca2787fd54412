import { describe, expect, it } from "vitest";
import type { UpstreamRequest, UpstreamResponse } from "@/lib/server/upstream/client";
import { listedMarketsOnly } from "@/lib/server/upstream/listed-markets";

/** A service listing `markets` (GET /markets), answering any other call 200; every call recorded. */
function service(markets: string[] | Error) {
  const calls: string[] = [];
  const client = {
    async request(request: UpstreamRequest): Promise<UpstreamResponse> {
      calls.push(`${request.method} ${request.path}`);
      if (request.path === "/markets") {
        if (markets instanceof Error) throw markets;
        return { status: 200, body: { markets: markets.map((market) => ({ market })) }, headers: new Headers() };
      }
      return { status: 200, body: {}, headers: new Headers() };
    },
  };
  return { calls, client };
}

describe("listedMarketsOnly", () => {
  it("answers market data of a market the service does not list with a 404 naming it, unsent", async () => {
    const { calls, client } = service(["BTCUSD", "PAXGUSD"]);
    const reads = listedMarketsOnly(client);
    for (const kind of ["ticker", "order-book", "recent-executions"]) {
      const res = await reads.request({ method: "GET", path: `/markets/GOLDUSD/${kind}` });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        status: 404,
        detail: expect.stringContaining("GOLDUSD"),
        meta: { market: "GOLDUSD" },
      });
    }
    expect((await reads.request({ method: "GET", path: "/markets/BTCUSD/ticker" })).status).toBe(200);
    // The list read once; the listed market's ticker sent; GOLDUSD's never.
    expect(calls).toEqual(["GET /markets", "GET /markets/BTCUSD/ticker"]);
  });

  it("reads the list again once it is stale, and learns it from any GET /markets that passes", async () => {
    let t = 0;
    const { calls, client } = service(["BTCUSD"]);
    const reads = listedMarketsOnly(client, { refreshMs: 1000, now: () => t });
    await reads.request({ method: "GET", path: "/markets/BTCUSD/ticker" });
    t = 999;
    await reads.request({ method: "GET", path: "/markets/BTCUSD/ticker" });
    t = 1000;
    await reads.request({ method: "GET", path: "/markets/BTCUSD/ticker" });
    expect(calls.filter((c) => c === "GET /markets")).toHaveLength(2);
    await reads.request({ method: "GET", path: "/markets" });
    t = 1999;
    await reads.request({ method: "GET", path: "/markets/BTCUSD/ticker" });
    expect(calls.filter((c) => c === "GET /markets")).toHaveLength(3);
  });

  it("sends every request while the list cannot be read, and leaves other calls alone", async () => {
    const { calls, client } = service(new Error("unreachable"));
    const reads = listedMarketsOnly(client);
    expect((await reads.request({ method: "GET", path: "/markets/GOLDUSD/ticker" })).status).toBe(200);
    await reads.request({ method: "GET", path: "/orders" });
    await reads.request({ method: "DELETE", path: "/profiles/p/orders/o" });
    expect(calls).toEqual([
      "GET /markets",
      "GET /markets/GOLDUSD/ticker",
      "GET /orders",
      "DELETE /profiles/p/orders/o",
    ]);
  });

  it("shares one read of the list among market data asked at once", async () => {
    const { calls, client } = service(["BTCUSD", "ETHUSD"]);
    const reads = listedMarketsOnly(client);
    await Promise.all(
      ["BTCUSD", "ETHUSD", "GOLDUSD"].map((m) => reads.request({ method: "GET", path: `/markets/${m}/ticker` })),
    );
    expect(calls.filter((c) => c === "GET /markets")).toHaveLength(1);
    expect(calls.filter((c) => c.endsWith("/ticker")).sort()).toEqual([
      "GET /markets/BTCUSD/ticker",
      "GET /markets/ETHUSD/ticker",
    ]);
  });
});
