import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/lib/server/db";
import {
  budgetRatesFromEnv,
  createUpstreamLimiter,
  memoryBudgetStore,
  paceOf,
  PUBLISHED_RATES,
  reserveSlot,
  retryAfterMs,
  UpstreamThrottled,
  type BudgetStore,
} from "@/lib/server/upstream/limiter";
import { postgresBudgetStore } from "@/lib/server/upstream/postgres-budget";
import { postgres } from "../../support/databases";

/** A clock the test moves; sleeping moves it (and records how long each sleep was). */
function fakeClock(start = 1_000_000) {
  let t = start;
  const slept: number[] = [];
  return {
    now: () => t,
    advance: (ms: number) => (t += ms),
    slept,
    sleep: async (ms: number) => {
      slept.push(ms);
      t += ms;
    },
  };
}

/** The service's bucket, as the sandbox keeps it: capacity one second's worth, refilled continuously. */
function serviceBucket(rate: number) {
  let tokens = rate;
  let at = 0;
  return (now: number) => {
    tokens = Math.min(rate, tokens + ((now - at) / 1000) * rate);
    at = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

describe("the GCRA schedule", () => {
  it("lets a burst through at once, then one slot per interval", () => {
    const pace = { intervalMs: 100, burst: 3 };
    let tat = 0;
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const slot = reserveSlot(tat, 1000, pace, Infinity)!;
      tat = slot.tat;
      waits.push(slot.waitMs);
    }
    expect(waits).toEqual([0, 0, 0, 100, 200, 300]);
  });

  it("refuses a slot beyond the longest wait, and leaves the schedule as it was", () => {
    const pace = { intervalMs: 100, burst: 1 };
    const first = reserveSlot(0, 1000, pace, 0)!;
    expect(first.waitMs).toBe(0);
    expect(reserveSlot(first.tat, 1000, pace, 99)).toBeNull();
    expect(reserveSlot(first.tat, 1000, pace, 100)).toEqual({ waitMs: 100, tat: first.tat + 100 });
  });

  it("paces under the limit with a margin, and bursts a fifth of a second's worth", () => {
    expect(paceOf(50)).toEqual({ intervalMs: 1000 / 40, burst: 10 });
    expect(paceOf(1)).toEqual({ intervalMs: 1000 / 0.8, burst: 1 });
    expect(paceOf(10, true).intervalMs).toBeCloseTo(1000 / 4);
  });
});

describe("the limiter over a fake clock", () => {
  it("never empties the service's bucket, whatever the demand", async () => {
    for (const [cls, rate] of Object.entries(PUBLISHED_RATES) as [keyof typeof PUBLISHED_RATES, number][]) {
      const clock = fakeClock(0);
      const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES, now: clock.now, sleep: clock.sleep });
      const service = serviceBucket(rate);
      // 10 seconds' worth of calls, all wanting to go at once: each goes when its wait is over.
      for (let i = 0; i < rate * 10; i++) {
        (await limiter.acquire(cls, Infinity))();
        expect(service(clock.now()), `${cls} call ${i}`).toBe(true);
      }
      // ...and the budget is used: 10 s of demand takes about 10 s / 0.8, not much longer.
      expect(clock.now()).toBeLessThan((10_000 / 0.8) * 1.01);
    }
  });

  it("refuses at once (UpstreamThrottled) a call whose slot comes after its deadline", async () => {
    const clock = fakeClock();
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES, now: clock.now, sleep: clock.sleep });
    (await limiter.acquire("token", clock.now() + 5000))();
    const error = await limiter.acquire("token", clock.now() + 500).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamThrottled);
    expect(error).toMatchObject({ budgetClass: "token", stage: "token", maybeDelivered: false });
    expect(clock.slept).toEqual([]);
  });

  it("keeps at most half a second's worth of a class in flight; a waiter gives up at its deadline", async () => {
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES });
    const releases = await Promise.all(
      Array.from({ length: 5 }, () => limiter.acquire("order-book", Date.now() + 5000)),
    );
    let sixth = false;
    const waiting = limiter.acquire("order-book", Date.now() + 5000).then((release) => {
      sixth = true;
      return release;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(sixth).toBe(false);
    await expect(limiter.acquire("order-book", Date.now() + 50)).rejects.toBeInstanceOf(UpstreamThrottled);
    releases[0]!();
    (await waiting)();
    expect(sixth).toBe(true);
    releases.slice(1).forEach((release) => release());
  });

  it("honours Retry-After, for every API class after an API 429, then goes at half the rate", async () => {
    const clock = fakeClock();
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES, now: clock.now, sleep: clock.sleep });
    await limiter.throttled("api", "7");
    expect(limiter.heldFor("transfer")).toBe(7000);
    expect(limiter.heldFor("token")).toBe(0);
    (await limiter.acquire("order-book", Infinity))();
    expect(clock.slept).toEqual([7000]);
    (await limiter.acquire("order-book", Infinity))();
    expect(clock.slept[1]).toBeCloseTo(1000 / 4);
    // A minute after the hold the rate is back, and so is the burst.
    clock.advance(61_000);
    clock.slept.length = 0;
    for (let i = 0; i < 2; i++) (await limiter.acquire("order-book", Infinity))();
    expect(clock.slept).toEqual([]);
  });

  it("without Retry-After, backs off 1 s, 2 s, 4 s ... and starts again after a success", async () => {
    const clock = fakeClock();
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES, now: clock.now, sleep: clock.sleep });
    const holds: number[] = [];
    for (let i = 0; i < 3; i++) {
      await limiter.throttled("token", null);
      holds.push(limiter.heldFor("token"));
    }
    expect(holds).toEqual([1000, 2000, 4000]);
    clock.advance(5000);
    limiter.succeeded("token");
    await limiter.throttled("token", null);
    expect(limiter.heldFor("token")).toBe(1000);
  });

  it("reads Retry-After as seconds or as a date, and ignores nonsense", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("takes its rates from SERVICE_*_RATE_PER_SECOND, else the sandbox's own or the published ones", () => {
    const sandboxRates = {
      SANDBOX_API_RATE_PER_SECOND: 7,
      SANDBOX_TRANSFER_RATE_PER_SECOND: 6,
      SANDBOX_ORDER_BOOK_RATE_PER_SECOND: 5,
      SANDBOX_TOKEN_RATE_PER_SECOND: 4,
    };
    expect(budgetRatesFromEnv({ service: { isSandbox: false }, ...sandboxRates })).toEqual(PUBLISHED_RATES);
    expect(budgetRatesFromEnv({ service: { isSandbox: true }, ...sandboxRates })).toEqual({
      api: 7,
      transfer: 6,
      "order-book": 5,
      token: 4,
    });
    expect(
      budgetRatesFromEnv({ service: { isSandbox: false }, ...sandboxRates, SERVICE_TOKEN_RATE_PER_SECOND: 3 }).token,
    ).toBe(3);
  });
});

/** The same contract for both stores: `instances` stores over one shared state. */
function storeContract(name: string, open: () => Promise<{ instances: BudgetStore[]; close(): Promise<void> }>) {
  describe(`${name} budget store`, () => {
    let instances: BudgetStore[];
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ instances, close } = await open());
    });
    afterAll(() => close?.());

    // Intervals of minutes: however slow the machine, the schedule does not move while the test runs.
    it("grants the burst and no more without waiting, however many instances ask at once", async () => {
      const pace = { intervalMs: 60_000, burst: 5 };
      const waits = await Promise.all(
        Array.from({ length: 40 }, (_, i) => instances[i % instances.length]!.reserve("transfer", pace, 0)),
      );
      expect(waits.filter((w) => w === 0)).toHaveLength(5);
      expect(waits.filter((w) => w === null)).toHaveLength(35);
    });

    it("queues calls one interval apart when they may wait", async () => {
      const pace = { intervalMs: 60_000, burst: 1 };
      const waits = (await Promise.all(
        Array.from({ length: 8 }, (_, i) => instances[i % instances.length]!.reserve("order-book", pace, 3_600_000)),
      )) as number[];
      waits.sort((a, b) => a - b);
      expect(waits[0]).toBe(0);
      // Each wait is counted from its own query's start, which differ by the time the queries took.
      for (let i = 1; i < waits.length; i++) expect(Math.abs(waits[i]! - waits[i - 1]! - 60_000)).toBeLessThan(2000);
    });

    it("holds a class off for every instance", async () => {
      const pace = { intervalMs: 10, burst: 3 };
      await instances[0]!.holdOff("api", pace, 60_000);
      const wait = await instances[instances.length - 1]!.reserve("api", pace, 120_000);
      expect(wait).toBeGreaterThan(58_000);
      expect(wait).toBeLessThanOrEqual(60_000);
      expect(await instances[0]!.reserve("api", pace, 30_000)).toBeNull();
    });
  });
}

storeContract("memory", async () => {
  const store = memoryBudgetStore();
  return { instances: [store], close: async () => {} };
});

storeContract("PostgreSQL", async () => {
  const { config, drop } = await postgres.open();
  // Two pools on one database: two instances of the dashboard.
  const dbs: Db[] = [await createDb(config), await createDb(config)];
  const instances = await Promise.all(dbs.map((db) => postgresBudgetStore(db)));
  return {
    instances,
    close: async () => {
      await Promise.all(dbs.map((db) => db.destroy()));
      await drop();
    },
  };
});
