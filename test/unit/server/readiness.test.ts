import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readinessOf } from "@/lib/server/ops/readiness";
import type { Runtime } from "@/lib/server/runtime";
import { testRuntime } from "../../support/runtime";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
  vi.unstubAllEnvs();
});

async function runtime(service: Partial<Runtime["service"]> = {}) {
  const t = await testRuntime(() => ({}));
  dispose = t.dispose;
  Object.assign(t.runtime.service, service);
  return t.runtime;
}

const NOW = 1_000_000;
const check = (rt: Runtime) =>
  readinessOf(
    async () => rt,
    () => NOW,
    200,
  );

describe("readiness", () => {
  it("is ready when the database answers with every migration run and a token comes", async () => {
    expect(await check(await runtime())).toEqual({ ready: true, checks: {} });
  });

  it("is not ready from the moment a shutdown begins", async () => {
    const rt = await runtime();
    rt.lifecycle.begin("SIGTERM");
    expect(await check(rt)).toEqual({ ready: false, checks: { shutdown: "this instance is shutting down" } });
  });

  it("names a lockout in force, with the time left, and asks for no token meanwhile", async () => {
    const token = vi.fn(async () => "t");
    const rt = await runtime({ lockedUntil: async () => NOW + 42_500, token });
    expect(await check(rt)).toEqual({
      ready: false,
      checks: { lockout: "the service refused the dashboard (HTTP 429): calls resume in 43 s" },
    });
    expect(token).not.toHaveBeenCalled();
  });

  it("is ready again once the lockout is over", async () => {
    expect((await check(await runtime({ lockedUntil: async () => NOW - 1 }))).ready).toBe(true);
  });

  it("names a token that cannot be obtained, without the client secret the message carried", async () => {
    vi.stubEnv("SERVICE_CLIENT_SECRET", "very-secret-client-value");
    const rt = await runtime({
      token: async () => {
        throw new Error("The token endpoint at auth.test refused very-secret-client-value (401 invalid_client)");
      },
    });
    const result = await check(rt);
    expect(result.ready).toBe(false);
    expect(result.checks.service).toMatch(
      /^no token: The token endpoint at auth.test refused .* \(401 invalid_client\)$/,
    );
    expect(JSON.stringify(result)).not.toContain("very-secret-client-value");
  });

  it("names a token endpoint that does not answer in time", async () => {
    const rt = await runtime({ token: () => new Promise(() => {}) });
    expect((await check(rt)).checks).toEqual({ service: "no token: no answer within 200 ms" });
  });

  it("names a migration of this build the database has not run", async () => {
    const rt = await runtime();
    await sql`DELETE FROM kysely_migration WHERE name = '0004_audit'`.execute(rt.db);
    expect(await check(rt)).toEqual({ ready: false, checks: { migrations: "not run yet: 0004_audit" } });
  });

  it("names a database that does not answer", async () => {
    const rt = await runtime();
    await rt.db.destroy();
    const result = await check(rt);
    expect(result.ready).toBe(false);
    expect(result.checks.database).toMatch(/^does not answer: /);
  });

  it("names a database the runtime could not open at start", async () => {
    const result = await readinessOf(() => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1")));
    expect(result).toEqual({ ready: false, checks: { database: "not open: connect ECONNREFUSED 127.0.0.1:1" } });
  });

  it("names every failing check at once", async () => {
    const rt = await runtime({ lockedUntil: async () => NOW + 1000 });
    rt.lifecycle.begin("SIGTERM");
    await sql`DELETE FROM kysely_migration WHERE name = '0004_audit'`.execute(rt.db);
    expect(Object.keys((await check(rt)).checks).sort()).toEqual(["lockout", "migrations", "shutdown"]);
  });
});
