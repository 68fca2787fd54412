import { describe, expect, it } from "vitest";
import type { UpstreamRequest, UpstreamResponse } from "@/lib/server/upstream/client";
import { singleFlight } from "@/lib/server/upstream/single-flight";

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
