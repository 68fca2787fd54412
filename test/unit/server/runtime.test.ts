import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** A real service's configuration, so no sandbox starts. */
const REAL_SERVICE = {
  SANDBOX: "off",
  SERVICE_BASE_URL: "https://service.example/v2",
  SERVICE_AUTH_URL: "https://service.example/oauth2/token",
  SERVICE_CLIENT_ID: "desk",
  SERVICE_CLIENT_SECRET: "desk-secret",
  AUDIT_SECRET: "an-audit-key-of-at-least-32-characters",
  NEXTAUTH_URL: "https://desk.example",
  DATABASE_URL: "",
};

describe("the server runtime", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "runtime-test-"));
  // The unit project shares one module graph per worker: a file before this one may have loaded
  // the runtime's modules with the environment of its time, or built a runtime. Each test here
  // stubs its environment, then imports them afresh.
  const noRuntime = async () => {
    const { closeRuntime } = await import("@/lib/server/runtime");
    await closeRuntime();
    vi.resetModules();
  };
  beforeEach(noRuntime);
  afterEach(async () => {
    await noRuntime();
    vi.unstubAllEnvs();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is built once per process and shared by every copy of the module", async () => {
    const dataDir = path.join(dir, "once");
    for (const [name, value] of Object.entries({ ...REAL_SERVICE, DATA_DIR: dataDir })) vi.stubEnv(name, value);
    const { runtime } = await import("@/lib/server/runtime");
    const [a, b] = await Promise.all([runtime(), runtime()]);
    expect(a).toBe(b);
    // Next loads the module again for the routes than for instrumentation.ts, and on each dev reload.
    vi.resetModules();
    const reloaded = await import("@/lib/server/runtime");
    expect(await reloaded.runtime()).toBe(a);
    expect(a.sandbox).toBeNull();
    // A server hashes passwords at OWASP's cost: only a test's runtime is made cheaper.
    expect(a.passwordCost).toEqual({ N: 2 ** 14, r: 8, p: 1 });
    expect(existsSync(path.join(dataDir, "dashboard.db"))).toBe(true);
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(a.db);
    expect(mode.rows[0]?.journal_mode).toBe("wal");
  });

  it("under the test harness's control, moves its clock and hashes passwords at the tests' cost", async () => {
    vi.stubEnv("DATA_DIR", path.join(dir, "controlled"));
    vi.stubEnv("SANDBOX_MARKET_MAKER", "off");
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("DASHBOARD_TEST_CONTROL", "a-test-control-secret-of-24-characters");
    const { runtime } = await import("@/lib/server/runtime");
    const rt = await runtime();
    expect(rt.passwordCost).toEqual({ N: 2 ** 10, r: 8, p: 1 });
    expect(typeof (rt.clock as { advance?: unknown }).advance).toBe("function");
  });

  it("starts the embedded sandbox and serves the dashboard's calls to it in-process", async () => {
    vi.stubEnv("DATA_DIR", path.join(dir, "sandbox"));
    vi.stubEnv("SANDBOX_MARKET_MAKER", "off");
    vi.stubEnv("DATABASE_URL", "");
    const { runtime } = await import("@/lib/server/runtime");
    const rt = await runtime();
    expect(rt.sandbox).not.toBeNull();
    // No server listens on the sandbox's URL here: only the in-process path can answer.
    const res = await rt.upstream.request({ method: "GET", path: "/profiles" });
    expect(res.status).toBe(200);
    expect((res.body as { items: { nickname: string }[] }).items.map((p) => p.nickname)).toContain("Trading");
    // The sandbox without the test harness's control (npm start, npm run dev): OWASP's cost.
    expect(rt.passwordCost).toEqual({ N: 2 ** 14, r: 8, p: 1 });
  });

  it("is tried again after a failed start", async () => {
    // A DATA_DIR under a file cannot be created: the first start fails.
    const blocker = path.join(dir, "blocker");
    writeFileSync(blocker, "");
    for (const [name, value] of Object.entries({ ...REAL_SERVICE, DATA_DIR: path.join(blocker, "data") })) {
      vi.stubEnv(name, value);
    }
    const { runtime } = await import("@/lib/server/runtime");
    await expect(runtime()).rejects.toThrow();
    rmSync(blocker);
    await expect(runtime()).resolves.toMatchObject({ sandbox: null });
  });
});
