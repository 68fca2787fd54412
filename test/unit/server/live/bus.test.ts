import { describe, expect, it } from "vitest";
import { memoryBus, type BusMessage } from "@/lib/server/live/bus";
import { MAX_NOTIFY_BYTES, Reassembler, toPayloads } from "@/lib/server/live/chunks";
import { visible } from "@/lib/server/live/hub";
import { Interests } from "@/lib/server/live/interests";

describe("memoryBus", () => {
  it("delivers to every subscriber until it unsubscribes, and survives one that throws", async () => {
    const bus = memoryBus();
    const got: BusMessage[] = [];
    bus.subscribe(() => {
      throw new Error("broken listener");
    });
    const off = bus.subscribe((m) => got.push(m));
    const message: BusMessage = { kind: "event", event: { name: "order", data: { id: "1" } } };
    await bus.publish(message);
    await Promise.resolve();
    expect(got).toEqual([message]);
    off();
    await bus.publish(message);
    await Promise.resolve();
    expect(got).toHaveLength(1);
  });
});

describe("NOTIFY payloads", () => {
  it("sends a small message whole", () => {
    expect(toPayloads('{"a":1}', "x")).toEqual(['1|{"a":1}']);
  });

  it("splits a large message into parts under the limit that put back together, in any order", () => {
    const text = JSON.stringify({ metadata: "é€😀".repeat(3000), n: "x".repeat(9000) });
    const parts = toPayloads(text, "m1");
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_NOTIFY_BYTES);
    const r = new Reassembler();
    const shuffled = [...parts].reverse();
    const results = shuffled.map((p) => r.add(p));
    expect(results.slice(0, -1).every((x) => x === undefined)).toBe(true);
    expect(results.at(-1)).toBe(text);
    expect(r.pending).toBe(0);
  });

  it("drops the parts of a message whose sender never finished", () => {
    let now = 0;
    const r = new Reassembler(() => now);
    const parts = toPayloads("y".repeat(20_000), "m2");
    r.add(parts[0]!);
    now = 60_000;
    r.add(toPayloads("z".repeat(20_000), "m3")[0]!);
    expect(r.pending).toBe(1);
  });
});

describe("Interests", () => {
  it("unites this instance's streams with the other instances' until they are stale", () => {
    let now = 0;
    const i = new Interests(() => now);
    const close = i.add({ profiles: ["p1"], markets: ["BTCUSD"] });
    i.heard("other", 3, ["p2"], ["ETHUSD"]);
    let w = i.watched();
    expect(w.streams).toBe(4);
    expect([...w.profiles].sort()).toEqual(["p1", "p2"]);
    now = 10_000;
    close();
    w = i.watched();
    expect(w).toEqual({ streams: 0, profiles: new Set(), markets: new Set() });
  });
});

describe("Interests per person", () => {
  it("counts a person's streams here and on the other instances, and reads a profile named by many once", () => {
    let now = 0;
    const i = new Interests(() => now);
    const closes = [1, 2, 3].map(() => i.add({ profiles: ["p1"], markets: [] }, "trader@example.com"));
    i.add({ profiles: ["p1"], markets: [] }, "ops@example.com");
    i.heard("other", 2, ["p1"], [], { "trader@example.com": 2 });
    expect(i.streamsOf("trader@example.com")).toBe(5);
    expect(i.own().people).toEqual({ "trader@example.com": 3, "ops@example.com": 1 });
    expect([...i.watched().profiles]).toEqual(["p1"]);
    closes[0]!();
    now = 10_000;
    expect(i.streamsOf("trader@example.com")).toBe(2);
  });
});

describe("visible", () => {
  const wants = { profiles: ["p1"], markets: ["BTCUSD"] };
  it("sends records to every reading role, balances and tickers only to the screens showing them", () => {
    expect(visible("viewer", wants, { name: "order", data: {} })).toBe(true);
    expect(visible("viewer", wants, { name: "approval", data: {} })).toBe(true);
    expect(visible("viewer", wants, { name: "balances", topic: "p1", data: {} })).toBe(true);
    expect(visible("viewer", wants, { name: "balances", topic: "p2", data: {} })).toBe(false);
    expect(visible("trader", wants, { name: "ticker", topic: "ETHUSD", data: {} })).toBe(false);
  });
});
