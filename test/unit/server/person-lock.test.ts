import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_POLICY } from "@/lib/shared/policy";
import { createAuditTrail } from "@/lib/server/audit-trail";
import { createSessionStore } from "@/lib/server/auth/sessions";
import { createOrder } from "@/lib/server/create/pipeline";
import { createDb, type Db } from "@/lib/server/db";
import { inPersonLock } from "@/lib/server/db/person-lock";
import { createMetrics } from "@/lib/server/ops/metrics";
import { createLifecycle } from "@/lib/server/ops/lifecycle";
import { movableClock } from "@/lib/server/clock";
import { parseEnv } from "@/lib/server/env-schema";
import type { Runtime } from "@/lib/server/runtime";
import { postgres, sqlite, suiteDatabase } from "../../support/databases";
import { fakeService } from "../../support/fake-service";
import { TEST_PASSWORD_COST } from "@/lib/server/auth/password";

const trader = { email: "trader@example.com", name: "Taylor Trader", role: "trader" as const };

/** A second instance of the dashboard on the same database: its own connections, its own process state. */
function instance(db: Db, posted: unknown[]): Runtime {
  const answer = fakeService({ tickers: { BTCUSD: ["99999", "100001"] } });
  return {
    config: parseEnv({ SANDBOX_MARKET_MAKER: "off" }),
    // A create's backoff before its retry is not waited for: the clock moves past it.
    clock: movableClock({ skipSleeps: true }),
    db,
    sandbox: null,
    audit: createAuditTrail(db, "audit-key-for-tests"),
    sessions: createSessionStore(db, { idleMinutes: 30 }),
    authSecret: "a-session-secret-for-the-unit-tests",
    passwordCost: TEST_PASSWORD_COST,
    live: {
      open: () => ({ close() {} }),
      publish: () => {},
      streams: 0,
      streamsOf: () => 0,
      leading: false,
      start: () => {},
      resign: async () => {},
      stop: async () => {},
    },
    lifecycle: createLifecycle(),
    service: { token: async () => "token", lockedUntil: async () => 0 },
    metrics: createMetrics(),
    upstream: {
      async request(req) {
        if (req.method === "POST") posted.push(req.body);
        return { status: 200, body: null, headers: new Headers(), ...(await answer(req)) };
      },
    },
  };
}

describe.each([sqlite, postgres])("one person's creates, one at a time, on $name", (backend) => {
  const suite = suiteDatabase(backend, ["journal", "approvals", "policy"]);
  const opened: Db[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.destroy()));
  });

  // PostgreSQL: two instances, each with its own pool. SQLite serves one process (its driver waits
  // for another process's write lock synchronously, so two handles in one process would stall each other).
  it("sends exactly 3 of 10 parallel 40,000 USD orders under a daily limit with room for 3", async () => {
    const policy = {
      ...DEFAULT_POLICY,
      approval_rules: [],
      limits: { ...DEFAULT_POLICY.limits, daily_order_notional_usd_per_user: "120000" },
    };
    await suite.db
      .insertInto("policy")
      .values({ id: 1, document_json: JSON.stringify(policy), updated_at: "", updated_by: "test" })
      .execute();
    const second = backend === postgres ? await createDb(suite.config) : suite.db;
    if (second !== suite.db) opened.push(second);
    const posted: unknown[] = [];
    const instances = [instance(suite.db, posted), instance(second, posted)];
    const order = (i: number) => ({
      market: "BTCUSD",
      side: "BUY",
      type: "LIMIT",
      price: "100000.00",
      base_amount: "0.4",
      ref_id: `par-${i}`,
      metadata: { n: String(i) },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        createOrder(instances[i % 2]!, "trading", order(i), { user: trader, ip: null }),
      ),
    );
    const sent = results.filter((r) => r.status === "fulfilled" && r.value.status === 200).length;
    const refused = results.flatMap((r) =>
      r.status === "rejected" ? [(r.reason as { problem: unknown }).problem] : [],
    );
    expect(sent).toBe(3);
    expect(refused).toHaveLength(7);
    expect(refused).toEqual(Array(7).fill(expect.objectContaining({ status: 403, type: "/problems/limit-exceeded" })));
    expect(posted).toHaveLength(3);
  });

  it("lets go of the lock when the step throws, and serialises the same person only", async () => {
    await expect(
      inPersonLock(suite.db, "a@example.com", async () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    // Taken again at once: the failed step released it.
    expect(await inPersonLock(suite.db, "a@example.com", async () => "again")).toBe("again");
  });
});
