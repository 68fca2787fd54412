import { describe, expect, it, vi } from "vitest";
import type { UpstreamRequest, UpstreamResponse } from "@/lib/server/upstream/client";
import { MARKET_POLL_MS } from "@/lib/shared/market-polling";
import { marketDataKeep, singleFlight } from "@/lib/server/upstream/single-flight";

function slowService() {
  const calls: UpstreamRequest[] = [];
  const client = {
    async request(request: UpstreamRequest): Promise<UpstreamResponse> {
      calls.push(request);
      await new Promise((r) => setTimeout(r, 20));
      return { status: 200, body: { items: [{ id: String(calls.length) }] }, headers: new Headers() };
    },
  };
  return { calls, client: singleFlight(client) };
}

describe("singleFlight", () => {
  it("shares one call among identical GETs in flight, each caller with its own copy of the body", async () => {
    const { calls, client } = slowService();
    const get = { method: "GET" as const, path: "/orders", query: { limit: 10, status: "OPEN" } };
    const same = { method: "GET" as const, path: "/orders", query: { status: "OPEN", limit: 10 } };
    const [a, b] = await Promise.all([client.request(get), client.request(same)]);
    expect(calls).toHaveLength(1);
    expect(a.body).toEqual(b.body);
    expect(a.body).not.toBe(b.body);
  });

  it("calls again once the earlier call is answered, and never shares other queries or writes", async () => {
    const { calls, client } = slowService();
    await client.request({ method: "GET", path: "/orders" });
    await client.request({ method: "GET", path: "/orders" });
    await Promise.all([
      client.request({ method: "GET", path: "/orders", query: { limit: 1 } }),
      client.request({ method: "GET", path: "/orders", query: { limit: 2 } }),
      client.request({ method: "POST", path: "/profiles/p/orders", body: {} }),
      client.request({ method: "POST", path: "/profiles/p/orders", body: {} }),
    ]);
    expect(calls).toHaveLength(6);
  });

  it("shares a failure with every caller", async () => {
    let n = 0;
    const client = singleFlight({
      async request() {
        n++;
        await new Promise((r) => setTimeout(r, 10));
        throw new Error("unreachable");
      },
    });
    const results = await Promise.allSettled([
      client.request({ method: "GET", path: "/x" }),
      client.request({ method: "GET", path: "/x" }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(n).toBe(1);
  });
});

/** A service behind singleFlight keeping market data as the back end does; `answer` is the nth call's body. */
function keepingService(answer: (n: number) => unknown, delayMs = 0) {
  const calls: string[] = [];
  const client = singleFlight(
    {
      async request(request) {
        calls.push(`${request.method} ${request.path}`);
        const n = calls.length;
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        return { status: 200, body: answer(n), headers: new Headers() };
      },
    },
    { keepMs: marketDataKeep },
  );
  return { calls, client };
}

describe("singleFlight keeping market data", () => {
  const book = { method: "GET" as const, path: "/markets/BTCUSD/order-book" };

  it("shares a book answered less than a screen's poll period ago, then calls again", async () => {
    vi.useFakeTimers();
    try {
      const { calls, client } = keepingService((n) => ({ bids: [[String(n)]] }));
      const first = await client.request(book);
      (first.body as { bids: unknown[] }).bids.length = 0; // a caller that changes what it got
      await vi.advanceTimersByTimeAsync(MARKET_POLL_MS["order-book"] - 200);
      const second = await client.request(book);
      expect(calls).toHaveLength(1);
      expect(second.body).toEqual({ bids: [["1"]] });
      await vi.advanceTimersByTimeAsync(100);
      const third = await client.request(book);
      expect(calls).toHaveLength(2);
      expect(third.body).toEqual({ bids: [["2"]] });
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives a fresh read (a create's price) its own call, which the screens after it then share", async () => {
    vi.useFakeTimers();
    try {
      const { calls, client } = keepingService((n) => ({ bid: String(n) }), 10);
      const ticker = { method: "GET" as const, path: "/markets/BTCUSD/ticker" };
      const screen = client.request(ticker);
      // Still on its way: a fresh read joins it.
      const joined = client.request({ ...ticker, fresh: true });
      await vi.advanceTimersByTimeAsync(10);
      expect([(await screen).body, (await joined).body]).toEqual([{ bid: "1" }, { bid: "1" }]);
      // Answered and kept: a fresh read calls again, and a screen afterwards shares its answer.
      const fresh = client.request({ ...ticker, fresh: true });
      await vi.advanceTimersByTimeAsync(10);
      expect((await fresh).body).toEqual({ bid: "2" });
      expect((await client.request(ticker)).body).toEqual({ bid: "2" });
      expect(calls).toHaveLength(2);
      // The first answer's keep running out does not drop the second.
      await vi.advanceTimersByTimeAsync(MARKET_POLL_MS.ticker - 105); // past the first keep, not the second
      expect((await client.request(ticker)).body).toEqual({ bid: "2" });
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("hands out nothing shared before a write once the write is answered", async () => {
    const { calls, client } = keepingService((n) => ({ n }));
    const ticker = { method: "GET" as const, path: "/markets/BTCUSD/ticker" };
    expect((await client.request(ticker)).body).toEqual({ n: 1 });
    expect((await client.request(ticker)).body).toEqual({ n: 1 }); // kept
    await client.request({ method: "POST", path: "/profiles/p/orders", body: {} });
    // The order may have moved the book: the ticker is asked again.
    expect((await client.request(ticker)).body).toEqual({ n: 3 });
    expect(calls).toEqual(["GET /markets/BTCUSD/ticker", "POST /profiles/p/orders", "GET /markets/BTCUSD/ticker"]);
  });

  it("keeps neither a refusal nor anything but public market data", async () => {
    vi.useFakeTimers();
    try {
      let n = 0;
      const client = singleFlight(
        {
          async request(request) {
            n++;
            return { status: request.path.includes("ETH") ? 429 : 200, body: {}, headers: new Headers() };
          },
        },
        { keepMs: marketDataKeep },
      );
      for (const path of ["/markets/ETHUSD/order-book", "/profiles/p/balances", "/markets/BTCUSD/ticker"]) {
        await client.request({ method: "GET", path });
        await client.request({ method: "GET", path });
      }
      expect(n).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });
});
