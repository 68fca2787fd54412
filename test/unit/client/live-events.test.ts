import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HANDLERS, startLiveEvents } from "@/lib/client/live-events";
import { keys } from "@/lib/client/queries";
import { parentOrderKeys } from "@/lib/client/parent-orders";
import { childFixture, parentFixture } from "../../support/parent-fixture";

const ORDER_ID = "6c9aed2e-8b4f-4edf-8dc4-42a86ba426cf";
const order = (status: string, modified_at: string) => ({ id: ORDER_ID, status, modified_at, amount_filled: "0" });
const submitted = order("SUBMITTED", "2026-11-24T10:00:00.100Z");
const open = order("OPEN", "2026-11-24T10:00:00.300Z");

describe("an order event in the cache", () => {
  it("replaces the order in a list that shows it, unless it is an older state", () => {
    const client = new QueryClient();
    const list = keys.orders({ limit: 25 });
    client.setQueryData(list, { items: [submitted] });
    HANDLERS.order!(client, open);
    expect(client.getQueryData(list)).toEqual({ items: [open], extra: undefined });
    HANDLERS.order!(client, submitted);
    expect(client.getQueryData(list)).toEqual({ items: [open], extra: undefined });
  });

  it("is waiting for the result card that opens after it: the create's answer came later than the watcher's news", () => {
    const client = new QueryClient();
    HANDLERS.order!(client, open);
    expect(client.getQueryData(keys.order(ORDER_ID))).toEqual(open);
    // The create's own (older) answer pushed afterwards does not undo it.
    HANDLERS.order!(client, submitted);
    expect(client.getQueryData(keys.order(ORDER_ID))).toEqual(open);
  });

  it("moves the card's record on when the card already follows it", () => {
    const client = new QueryClient();
    client.setQueryData(keys.order(ORDER_ID), submitted);
    HANDLERS.order!(client, open);
    expect(client.getQueryData(keys.order(ORDER_ID))).toEqual(open);
    expect(client.getQueryData(keys.transfer(ORDER_ID))).toBeUndefined();
  });
});

describe("a parent order event in the cache (issue 29)", () => {
  const working = parentFixture();
  const further = parentFixture({
    filled_base: "0.06666666",
    children: [
      ...working.children.slice(0, 2),
      childFixture(3, { sent_at: "2026-11-27T12:00:20.300Z", status: "FILLED" }),
      ...working.children.slice(3),
    ],
  });

  it("moves the parent's page and the list of parents on, and never back", () => {
    const client = new QueryClient();
    client.setQueryData(parentOrderKeys.list, [working]);
    client.setQueryData(parentOrderKeys.one(working.id), working);
    HANDLERS.parent_order!(client, further);
    expect(client.getQueryData(parentOrderKeys.one(working.id))).toEqual(further);
    expect(client.getQueryData(parentOrderKeys.list)).toEqual([further]);
    // An older state crossing on the way changes neither.
    HANDLERS.parent_order!(client, working);
    expect(client.getQueryData(parentOrderKeys.one(working.id))).toEqual(further);
    expect(client.getQueryData(parentOrderKeys.list)).toEqual([further]);
  });

  it("reads the list again for a parent it does not hold yet", async () => {
    const client = new QueryClient();
    let reads = 0;
    const observer = new QueryObserver(client, {
      queryKey: parentOrderKeys.list,
      queryFn: async () => (++reads === 1 ? [] : [working]),
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(client.getQueryData(parentOrderKeys.list)).toEqual([]));
    HANDLERS.parent_order!(client, working);
    await vi.waitFor(() => expect(client.getQueryData(parentOrderKeys.list)).toEqual([working]));
    expect(reads).toBe(2);
    unsubscribe();
  });
});

describe("a list read while events arrive", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A list on screen whose read takes 100 ms and answers what the service held when it began. */
  function slowList(held: () => object[]) {
    const client = new QueryClient();
    const key = keys.orders({ limit: 25 });
    const reads = { begun: 0, answered: 0 };
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: async ({ signal }) => {
        reads.begun++;
        const items = [...held()];
        await new Promise((resolve, reject) => {
          const t = setTimeout(resolve, 100);
          signal.addEventListener("abort", () => (clearTimeout(t), reject(new Error("cancelled"))));
        });
        reads.answered++;
        return { items };
      },
    });
    const off = observer.subscribe(() => {});
    return { client, key, reads, off };
  }

  it("is never cancelled by the next event: with an order every 50 ms, lists still come, and a last one holds every order", async () => {
    const placed: { id: string; status: string; modified_at: string }[] = [];
    const { client, key, reads, off } = slowList(() => placed);
    await vi.advanceTimersByTimeAsync(150);
    expect(reads.answered).toBe(1);
    for (let i = 0; i < 20; i++) {
      const o = { id: `order-${i}`, status: "OPEN", modified_at: "2026-11-24T10:00:00Z" };
      placed.push(o);
      HANDLERS.order!(client, o);
      await vi.advanceTimersByTimeAsync(50);
    }
    // Events twice as fast as a read: each read ends, and one more follows for those meanwhile.
    expect(reads.answered).toBeGreaterThanOrEqual(5);
    await vi.advanceTimersByTimeAsync(500);
    expect((client.getQueryData(key) as { items: unknown[] }).items).toHaveLength(20);
    expect(reads.begun - reads.answered, "no read was cancelled").toBe(0);
    off();
  });

  it("reads again when a shown order changes while a read is under way, so the read's older state does not stay", async () => {
    let held = [submitted];
    const { client, key, off } = slowList(() => held);
    await vi.advanceTimersByTimeAsync(150);
    // A read begins (the service still says SUBMITTED), then the order opens and its event arrives.
    void client.invalidateQueries({ queryKey: key });
    await vi.advanceTimersByTimeAsync(10);
    held = [open];
    HANDLERS.order!(client, open);
    expect(client.getQueryData(key)).toMatchObject({ items: [open] });
    await vi.advanceTimersByTimeAsync(500);
    expect(client.getQueryData(key)).toMatchObject({ items: [open] });
    off();
  });
});

/** Just enough of EventSource to open, fail and deliver by hand. */
class FakeSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeSource[] = [];
  readyState = FakeSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, (e: { data: string }) => void>();
  constructor(readonly url: string) {
    FakeSource.made.push(this);
  }
  addEventListener(name: string, fn: (e: { data: string }) => void) {
    this.listeners.set(name, fn);
  }
  close() {
    this.readyState = FakeSource.CLOSED;
  }
  opened() {
    this.readyState = FakeSource.OPEN;
    this.onopen?.();
  }
  deliver(name: string, data: unknown) {
    if (this.readyState !== FakeSource.CLOSED) this.listeners.get(name)?.({ data: JSON.stringify(data) });
  }
}

describe("the page's stream when the screen changes", () => {
  beforeEach(() => {
    FakeSource.made = [];
    vi.useFakeTimers();
    vi.stubGlobal("EventSource", FakeSource);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("keeps the open stream until the new one is open, so an event sent in between is not lost", async () => {
    const client = new QueryClient();
    const stop = startLiveEvents(client);
    await vi.advanceTimersByTimeAsync(1_000);
    const [first] = FakeSource.made;
    first!.opened();

    // A balance appears on screen: the stream for the new screen connects...
    const shown = new QueryObserver(client, { queryKey: keys.balances("P1"), queryFn: () => [], enabled: false });
    const unsubscribe = shown.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(1_000);
    const second = FakeSource.made[1]!;
    expect(second.url).toBe("/api/events?profiles=P1");
    expect(first!.readyState, "the open stream stays open while the new one connects").toBe(FakeSource.OPEN);

    // ...and an order placed meanwhile arrives on the old one.
    const list = keys.orders({ limit: 25 });
    client.setQueryData(list, { items: [submitted] });
    first!.deliver("order", open);
    expect(client.getQueryData(list)).toEqual({ items: [open], extra: undefined });

    second.opened();
    expect(first!.readyState, "closed once the new one is open").toBe(FakeSource.CLOSED);
    unsubscribe();
    stop();
    expect(second.readyState).toBe(FakeSource.CLOSED);
  });

  it("closes a stream that never opened when the screen changes again", async () => {
    const client = new QueryClient();
    const stop = startLiveEvents(client);
    await vi.advanceTimersByTimeAsync(1_000);
    const first = FakeSource.made[0]!;
    first.opened();
    const a = new QueryObserver(client, { queryKey: keys.balances("P1"), queryFn: () => [], enabled: false });
    const offA = a.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(1_000);
    const b = new QueryObserver(client, { queryKey: keys.balances("P2"), queryFn: () => [], enabled: false });
    const offB = b.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(1_000);
    const [, connecting, third] = FakeSource.made;
    expect(connecting!.readyState, "the one still connecting is dropped").toBe(FakeSource.CLOSED);
    third!.opened();
    expect(FakeSource.made.filter((s) => s.readyState !== FakeSource.CLOSED)).toEqual([third]);
    offA();
    offB();
    stop();
  });
});
