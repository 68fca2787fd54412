import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../support/app-server";
import { eventually, rawCall, resetDashboard, type Dashboard } from "../../support/dashboard";
import { freshPostgresDatabase } from "../../support/databases";
import { resetApp, sharedApp, type SharedApp } from "../../support/shared-app";

/**
 * Running it in production, against the built app (`next start`): a bad configuration stops it
 * before it serves; liveness and readiness on the lane's app, reset to each situation. (Its log
 * lines, a production start without the test control, kill -9 and SIGTERM:
 * test/integration/process/one-instance.test.ts.)
 */

interface Exit {
  code: number | null;
  output: string;
  /** HTTP answers the process gave while it ran (there must be none). */
  answered: number;
}

/** Starts `command` with `env` and waits for it to exit, probing its port for any answer meanwhile. */
async function runToExit(command: string, args: string[], port: number, env: Record<string, string>): Promise<Exit> {
  const dataDir = mkdtempSync(join(tmpdir(), "dashboard-failfast-"));
  const child = spawn(command, args, {
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let answered = 0;
  let running = true;
  void exited.then(() => (running = false));
  while (running) {
    await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) }).then(
      () => void answered++,
      () => undefined,
    );
    await Promise.race([exited, new Promise((r) => setTimeout(r, 50))]);
  }
  const code = await exited;
  rmSync(dataDir, { recursive: true, force: true });
  return { code, output, answered };
}

const nextStart = async (env: Record<string, string>) => {
  const port = await freePort();
  const args = ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"];
  return runToExit(process.execPath, args, port, { PORT: String(port), ...env });
};

describe("a bad configuration", () => {
  it.each<[string, Record<string, string>, string[]]>([
    [
      // A short METRICS_TOKEN among them (alone, it is `npm start`'s case below): one start for all.
      "a real service half configured, over plain http, with the demo password, among other bad values",
      {
        SERVICE_BASE_URL: "http://api.example.test/v2",
        DEMO_USERS: "on",
        DEMO_PASSWORD: "demo",
        METRICS_TOKEN: "short",
        LOG_LEVEL: "loud",
        SHUTDOWN_GRACE_SECONDS: "soon",
        // Never a test harness's control of the runtime beside a real service.
        DASHBOARD_TEST_CONTROL: "a-test-control-secret-of-32-chars",
      },
      [
        "DASHBOARD_TEST_CONTROL: DASHBOARD_TEST_CONTROL is for the test harness only: it must not be set with SERVICE_BASE_URL",
        "SERVICE_AUTH_URL: SERVICE_AUTH_URL is required when SERVICE_BASE_URL is set",
        "SERVICE_CLIENT_ID: SERVICE_CLIENT_ID is required when SERVICE_BASE_URL is set",
        "SERVICE_CLIENT_SECRET: SERVICE_CLIENT_SECRET is required when SERVICE_BASE_URL is set",
        // No audit key generated beside the trail it guards, against a real service.
        "AUDIT_SECRET: AUDIT_SECRET is required when SERVICE_BASE_URL is set",
        "SERVICE_BASE_URL: SERVICE_BASE_URL must use https:// (http:// only to a loopback host)",
        'DEMO_PASSWORD: DEMO_PASSWORD must be at least 12 characters, and not "demo", while DEMO_USERS=on with a real service',
        "METRICS_TOKEN: METRICS_TOKEN must be at least 24 characters",
        "LOG_LEVEL: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
        "SHUTDOWN_GRACE_SECONDS: SHUTDOWN_GRACE_SECONDS must be a whole number",
      ],
    ],
    [
      "SANDBOX=off with no service",
      { SANDBOX: "off" },
      ["SERVICE_BASE_URL: SERVICE_BASE_URL is required when SANDBOX=off"],
    ],
  ])(
    "(%s) ends `next start` with exit status 1 before it answers anything, naming each variable and rule",
    async (_, env, lines) => {
      const { code, output, answered } = await nextStart(env);
      expect(code, output).toBe(1);
      for (const line of lines) expect(output).toContain(line);
      expect(output).toContain("The dashboard did not start");
      expect(answered, output).toBe(0);
    },
    90_000,
  );

  it("stops `npm start` before anything listens", async () => {
    const port = await freePort();
    const { code, output, answered } = await runToExit("npm", ["start", "--", "-p", String(port)], port, {
      METRICS_TOKEN: "short",
    });
    expect(code, output).toBe(1);
    expect(output).toContain("METRICS_TOKEN: METRICS_TOKEN must be at least 24 characters");
    // Next prints "Ready" once it listens: it never got that far.
    expect(output).not.toMatch(/Ready in/);
    expect(answered).toBe(0);
  }, 90_000);
});

describe("GET /api/health and GET /api/ready", () => {
  let d: Dashboard;
  beforeAll(async () => {
    d = await resetDashboard();
  });
  afterAll(() => d?.dispose());

  it("answer without a session: alive, and ready", async () => {
    const health = await rawCall(d.url, "GET", "/api/health");
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: { status: "ok" } });
    expect(health.headers.get("cache-control")).toBe("no-store");
    const ready = await rawCall(d.url, "GET", "/api/ready");
    expect({ status: ready.status, body: ready.body }).toEqual({ status: 200, body: { status: "ready" } });
  });

  it("is not ready while a migration of this build has not run, and ready again once it has", async () => {
    const file = join((await d.control!.state()).data_dir, "dashboard.db");
    const db = new Database(file);
    try {
      const row = db.prepare("SELECT * FROM kysely_migration WHERE name = '0004_audit'").get() as object;
      db.prepare("DELETE FROM kysely_migration WHERE name = '0004_audit'").run();
      const ready = await rawCall(d.url, "GET", "/api/ready");
      expect({ status: ready.status, body: ready.body }).toEqual({
        status: 503,
        body: { status: "not ready", checks: { migrations: "not run yet: 0004_audit" } },
      });
      const columns = Object.keys(row);
      db.prepare(
        `INSERT INTO kysely_migration (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
      ).run(row);
    } finally {
      db.close();
    }
    expect((await rawCall(d.url, "GET", "/api/ready")).status).toBe(200);
  });

  it("is not ready while the service holds the dashboard off after a 429, and says for how long", async () => {
    d.proxy.fail(
      { method: "GET", path: /\/profiles$/ },
      { kind: "status", status: 429, headers: { "retry-after": "120" } },
      1,
    );
    await d.as.trader.call("GET", "/api/v2/profiles");
    const ready = await rawCall(d.url, "GET", "/api/ready");
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: "not ready",
      checks: {
        lockout: expect.stringMatching(/^the service refused the dashboard \(HTTP 429\): calls resume in 1[0-2]\d s$/),
      },
    });
    // Liveness is not readiness: the process is fine.
    expect((await rawCall(d.url, "GET", "/api/health")).status).toBe(200);
  });
});

describe("GET /api/ready when the service refuses the dashboard's credentials", () => {
  const secret = "a-wrong-client-secret-never-to-be-shown";
  let d: Dashboard;
  beforeAll(async () => {
    d = await resetDashboard({ clientSecret: secret });
  });
  afterAll(() => d?.dispose());

  it("is 503 naming the service check, without the secret", async () => {
    const ready = await rawCall(d.url, "GET", "/api/ready");
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: "not ready",
      checks: { service: expect.stringMatching(/^no token: The token endpoint at 127\.0\.0\.1:\d+ refused/) },
    });
    expect(JSON.stringify(ready.body)).not.toContain(secret);
  });
});

/** A TCP relay to PostgreSQL that can be cut (the database gone) and restored on the same port. */
async function cuttableRelay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const port = await freePort();
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await open();
  return {
    port,
    async cut() {
      const closed = new Promise((resolve) => server!.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: open,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => (server?.listening ? server.close(resolve) : resolve(undefined)));
    },
  };
}

describe("GET /api/ready on PostgreSQL when the database goes away", () => {
  let app: SharedApp;
  let relay: Awaited<ReturnType<typeof cuttableRelay>>;
  beforeAll(async () => {
    const real = new URL(await freshPostgresDatabase());
    relay = await cuttableRelay(real);
    const viaRelay = new URL(real.href);
    viaRelay.port = String(relay.port);
    viaRelay.password = "pw-that-must-not-show";
    app = await resetApp({ DATABASE_URL: viaRelay.href });
  });
  afterAll(async () => {
    // The next file's reset closes the runtime's pool, which the cut left broken.
    await relay?.close();
  });

  it("is 503 naming the database while it is gone, alive all the same, and ready once it is back", async () => {
    expect((await rawCall(app.url, "GET", "/api/ready")).status).toBe(200);
    await relay.cut();
    const gone = await rawCall(app.url, "GET", "/api/ready");
    expect(gone.status).toBe(503);
    expect(gone.body).toEqual({
      status: "not ready",
      checks: { database: expect.stringMatching(/^does not answer: /) },
    });
    expect(JSON.stringify(gone.body)).not.toContain("pw-that-must-not-show");
    expect((await rawCall(app.url, "GET", "/api/health")).status).toBe(200);
    await relay.restore();
    await eventually(
      async () => ((await rawCall(app.url, "GET", "/api/ready")).status === 200 ? true : undefined),
      20_000,
      "ready again",
    );
  }, 60_000);
});

describe("GET /api/ready when the database is unreachable from the start", () => {
  let app: SharedApp;
  let refusal: unknown;
  beforeAll(async () => {
    const closed = await freePort();
    // Started on a database that does not answer: the reset says so, and each request tries again.
    refusal = await resetApp({
      DATABASE_URL: `postgres://app:pw-that-must-not-show@127.0.0.1:${closed}/dashboard`,
    }).catch((error: unknown) => error);
    app = sharedApp();
  });

  it("is 503 naming the database, while the process stays alive", async () => {
    expect(String(refusal)).toMatch(/ECONNREFUSED/);
    expect(String(refusal)).not.toContain("pw-that-must-not-show");
    const ready = await rawCall(app.url, "GET", "/api/ready");
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: "not ready",
      checks: { database: expect.stringMatching(/^not open: .*ECONNREFUSED/) },
    });
    expect(JSON.stringify(ready.body)).not.toContain("pw-that-must-not-show");
    expect(app.log()).not.toContain("pw-that-must-not-show");
    expect((await rawCall(app.url, "GET", "/api/health")).status).toBe(200);
  });
});
