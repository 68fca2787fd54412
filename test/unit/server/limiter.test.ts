import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/lib/server/db";
import { BUDGET_CLASSES, budgetRatesFromEnv, PUBLISHED_RATES, rateOf } from "@/lib/server/upstream/budget-rates";
import { memoryBudgetStore, type BudgetStore } from "@/lib/server/upstream/budget-store";
import { UpstreamLocked, UpstreamThrottled } from "@/lib/server/upstream/errors";
import { createUpstreamLimiter } from "@/lib/server/upstream/limiter";
import { inFlightCap, paceOf, reserveSlot } from "@/lib/server/upstream/pace";
import { retryAfterMs } from "@/lib/server/upstream/retry-after";
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
    for (const cls of BUDGET_CLASSES) {
      const rate = rateOf(cls, PUBLISHED_RATES);
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

  it("counts order book and recent executions at 10/s, transfers at 20/s, the token endpoint at 1/s, the rest at 50/s", () => {
    expect(PUBLISHED_RATES).toEqual({ api: 50, transfer: 20, "order-book": 10, token: 1 });
    // Creates and cancels of orders are the API class's too: their share and the reads' make its 50.
    expect(rateOf("create", PUBLISHED_RATES) + rateOf("api", PUBLISHED_RATES)).toBe(50);
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
});

describe("creates go first", () => {
  /** A clock that does not move while calls wait: every call below is booked in the same instant. */
  const frozen = () => {
    const waits: number[] = [];
    const limiter = createUpstreamLimiter({
      rates: PUBLISHED_RATES,
      now: () => 1_000_000,
      sleep: async (ms) => void waits.push(ms),
    });
    return { limiter, waits };
  };

  it("a create's slot does not wait behind the reads booked ahead of it", async () => {
    const { limiter, waits } = frozen();
    // The watcher and 100 screens book 12 s of reads (400 at the reads' 32/s).
    for (let i = 0; i < 400; i++) (await limiter.acquire("api", Infinity))();
    expect(waits.at(-1)).toBeGreaterThan(12_000);
    waits.length = 0;
    (await limiter.acquire("create", Infinity))();
    (await limiter.acquire("create", Infinity))();
    expect(waits).toEqual([]);
    // The next reads still queue behind their own.
    (await limiter.acquire("api", Infinity))();
    expect(waits[0]).toBeGreaterThan(12_000);
  });

  it("a create does not wait for room among the reads in flight", async () => {
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES });
    const reads = await Promise.all(
      Array.from({ length: inFlightCap(rateOf("api", PUBLISHED_RATES)) }, () =>
        limiter.acquire("api", Date.now() + 5000),
      ),
    );
    // The reads' calls in flight are full: another read waits and gives up at its deadline ...
    await expect(limiter.acquire("api", Date.now() + 50)).rejects.toBeInstanceOf(UpstreamThrottled);
    // ... a create goes at once.
    const create = await limiter.acquire("create", Date.now() + 50);
    create();
    reads.forEach((release) => release());
  });

  it("reads and creates together never empty the service's API bucket", async () => {
    const store = memoryBudgetStore(() => 0);
    const at: number[] = [];
    // Everyone asks at time 0 for ten seconds' worth of each: each call goes at 0 + its wait.
    for (let i = 0; i < 10 * 50; i++) {
      for (const cls of ["api", "create"] as const) {
        const wait = await store.reserve(cls, paceOf(rateOf(cls, PUBLISHED_RATES)), Infinity);
        at.push(wait as number);
      }
    }
    const service = serviceBucket(PUBLISHED_RATES.api);
    for (const t of at.sort((a, b) => a - b)) expect(service(t), `the call at ${t} ms`).toBe(true);
  });
});

describe("the lockout after a 429", () => {
  it("without Retry-After holds every call, of every class and the token endpoint's, for the penalty", async () => {
    const clock = fakeClock();
    const limiter = createUpstreamLimiter({
      rates: PUBLISHED_RATES,
      penaltyMs: 300_000,
      now: clock.now,
      sleep: clock.sleep,
    });
    const until = await limiter.lockOut(null);
    expect(until).toBe(clock.now() + 300_000);
    expect(await limiter.lockedUntil()).toBe(until);
    for (const cls of BUDGET_CLASSES) {
      const error = await limiter.acquire(cls, Infinity).catch((e: unknown) => e);
      expect(error, cls).toBeInstanceOf(UpstreamLocked);
      expect(error).toMatchObject({ until, stage: cls === "token" ? "token" : "request", maybeDelivered: false });
    }
    // Refused, not queued: nobody slept into the lockout.
    expect(clock.slept).toEqual([]);
    clock.advance(299_999);
    await expect(limiter.acquire("api", Infinity)).rejects.toBeInstanceOf(UpstreamLocked);
    clock.advance(1);
    expect(await limiter.lockedUntil()).toBe(0);
    (await limiter.acquire("api", Infinity))();
  });

  it("holds for Retry-After when the service sends one, then goes at half the pace for a minute", async () => {
    const clock = fakeClock();
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES, now: clock.now, sleep: clock.sleep });
    expect(await limiter.lockOut("7")).toBe(clock.now() + 7000);
    await expect(limiter.acquire("order-book", Infinity)).rejects.toBeInstanceOf(UpstreamLocked);
    clock.advance(7000);
    // The burst of the order book (2), then slots at half its pace.
    for (let i = 0; i < 3; i++) (await limiter.acquire("order-book", Infinity))();
    expect(clock.slept).toEqual([expect.closeTo(1000 / 4, 5)]);
    // A minute after the lockout the pace is back.
    clock.advance(61_000);
    clock.slept.length = 0;
    for (let i = 0; i < 3; i++) (await limiter.acquire("order-book", Infinity))();
    expect(clock.slept).toEqual([expect.closeTo(1000 / 8, 5)]);
  });

  it("a later, shorter 429 does not shorten the lockout in force", async () => {
    const clock = fakeClock();
    const limiter = createUpstreamLimiter({ rates: PUBLISHED_RATES, now: clock.now, sleep: clock.sleep });
    const until = await limiter.lockOut("60");
    expect(await limiter.lockOut("1")).toBe(until);
  });

  it("holds a call that was waiting for its slot when the lockout began", async () => {
    const clock = fakeClock();
    const limiter = createUpstreamLimiter({
      rates: PUBLISHED_RATES,
      now: clock.now,
      sleep: async (ms) => {
        // Another call meets the 429 while this one sleeps.
        await limiter.lockOut(null);
        clock.advance(ms);
      },
    });
    (await limiter.acquire("token", Infinity))();
    await expect(limiter.acquire("token", Infinity)).rejects.toBeInstanceOf(UpstreamLocked);
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

    // Last: it locks every class of the store out.
    it("a lockout set through one instance refuses every class on every instance, and reserves nothing", async () => {
      const pace = { intervalMs: 10, burst: 3 };
      expect(await instances[0]!.lockedUntil()).toBe(0);
      const before = Date.now();
      const until = await instances[0]!.lockOut(60_000);
      // On the store's clock (the database's for PostgreSQL): about a minute from now.
      expect(Math.abs(until - (before + 60_000))).toBeLessThan(5_000);
      for (const store of instances) {
        expect(await store.lockedUntil()).toBe(until);
        for (const cls of BUDGET_CLASSES)
          expect(await store.reserve(cls, pace, Infinity)).toEqual({ lockedUntil: until });
      }
      // A shorter lockout does not shorten it; a longer one extends it.
      expect(await instances.at(-1)!.lockOut(1_000)).toBe(until);
      expect(await instances.at(-1)!.lockOut(120_000)).toBeGreaterThan(until);
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
