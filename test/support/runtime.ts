import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAuditTrail } from "@/lib/server/audit-trail";
import { createSessionStore } from "@/lib/server/auth/sessions";
import { createDb } from "@/lib/server/db";
import { createLifecycle } from "@/lib/server/ops/lifecycle";
import type { LiveEvent } from "@/lib/server/live/events";
import { createMetrics } from "@/lib/server/ops/metrics";
import { movableClock } from "@/lib/server/clock";
import { parseEnv } from "@/lib/server/env-schema";
import { TEST_PASSWORD_COST } from "@/lib/server/auth/password";
import type { Runtime } from "@/lib/server/runtime";
import type { UpstreamRequest, UpstreamResponse } from "@/lib/server/upstream/client";

/** How the fake service answers one call: a response, or a thrown upstream failure. */
export type FakeAnswer = (request: UpstreamRequest) => Partial<UpstreamResponse> | Promise<Partial<UpstreamResponse>>;

/**
 * A runtime for unit tests: a real SQLite database (journal, audit) in a temporary directory, no sandbox, and an
 * upstream client that records each call and answers with `answer`.
 */
export async function testRuntime(answer: FakeAnswer) {
  const dir = mkdtempSync(path.join(tmpdir(), "runtime-"));
  const db = await createDb({ kind: "sqlite", file: path.join(dir, "dashboard.db") });
  const calls: UpstreamRequest[] = [];
  const published: LiveEvent[] = [];
  const runtime: Runtime = {
    config: parseEnv({ SANDBOX_MARKET_MAKER: "off" }),
    // A create's backoff before its retry is not waited for: the clock moves past it.
    clock: movableClock({ skipSleeps: true }),
    db,
    sandbox: null,
    audit: createAuditTrail(db, "audit-key-for-tests"),
    sessions: createSessionStore(db, { idleMinutes: 30 }),
    authSecret: "a-session-secret-for-the-unit-tests",
    passwordCost: TEST_PASSWORD_COST,
    // No streams in unit tests: what would be pushed is recorded.
    live: {
      open: () => ({ close() {} }),
      streamsOf: () => 0,
      publish: (event) => void published.push(event),
      streams: 0,
      leading: false,
      start: () => {},
      resign: async () => {},
      stop: async () => {},
    },
    metrics: createMetrics(),
    lifecycle: createLifecycle(),
    // A service that always gives a token and never locks the dashboard out.
    service: { token: async () => "token", lockedUntil: async () => 0 },
    upstream: {
      async request(request) {
        calls.push(request);
        const res = await answer(request);
        return { status: 200, body: null, headers: new Headers(), ...res };
      },
    },
  };
  return {
    runtime,
    calls,
    published,
    async dispose() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
