import { beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../../support/app-server";
import { rawCall } from "../../support/dashboard";
import { resetApp, type SharedApp } from "../../support/shared-app";
import { TEST_CONTROL_PATH } from "../../support/test-control";

/**
 * The harness's control of a running server's runtime (lib/server/ops/test-control.ts), on the
 * lane's app that was started with it: heard only with its secret, refusing settings a reset
 * cannot change and any "service" but this machine, and doing what it says: an empty database,
 * the settings given, the clock moved. That a production start has none of it:
 * test/integration/process/one-instance.test.ts; that it cannot be paired with a real service:
 * production.test.ts.
 */

let app: SharedApp;
beforeAll(async () => {
  app = await resetApp();
});

const command = (body: unknown, secret?: string) =>
  rawCall(app.url, "POST", TEST_CONTROL_PATH, {
    body,
    headers: secret === undefined ? {} : { Authorization: `Bearer ${secret}` },
  });

describe("the test control", () => {
  it("is refused without its secret, or with another", async () => {
    for (const secret of [undefined, "not-the-secret-but-long-enough-anyway"]) {
      const res = await command({ op: "advance", ms: 3_600_000 }, secret);
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
    }
    expect((await app.control.state()).clock_offset_ms).toBe(0);
  });

  it("refuses what a reset cannot change, a service elsewhere, and a bad setting, naming each", async () => {
    await expect(app.control.reset({ PORT: "1" })).rejects.toThrow(/400: PORT is read when the process starts/);
    await expect(
      app.control.reset({
        SERVICE_BASE_URL: "https://api.example.com/v2",
        SERVICE_AUTH_URL: "https://api.example.com/oauth2/token",
        SERVICE_CLIENT_ID: "desk",
        SERVICE_CLIENT_SECRET: "desk-secret",
        AUDIT_SECRET: "an-audit-key-of-at-least-32-characters",
      }),
    ).rejects.toThrow(/400: SERVICE_BASE_URL must name a loopback host/);
    await expect(app.control.reset({ SESSION_IDLE_MINUTES: "0.1" })).rejects.toThrow(
      /400: Invalid configuration:\s+SESSION_IDLE_MINUTES: SESSION_IDLE_MINUTES must be at least 0.5/,
    );
    await expect(app.control.reset({ SANDBOX_SEED: 7 as unknown as string })).rejects.toThrow(
      /400: settings.SANDBOX_SEED must be a string/,
    );
  });

  it("starts the runtime afresh: an empty database, the settings given", async () => {
    const before = await app.control.reset();
    const trader = await signIn(app, "trader@example.com");
    expect((await trader.call("GET", "/api/approvals")).status).toBe(200);
    const after = await app.control.reset({ SESSION_IDLE_MINUTES: "0.5" });
    expect(after.data_dir).not.toBe(before.data_dir);
    // The session's row went with the old database.
    expect((await trader.call("GET", "/api/approvals")).status).toBe(401);
    const again = await signIn(app, "trader@example.com");
    await app.control.advance(31_000);
    expect((await again.call("GET", "/api/approvals")).status, "idle after 30 s").toBe(401);
  });

  it("moves the clock forward, never back", async () => {
    const { clock_offset_ms: offset, now } = await app.control.reset();
    expect(offset).toBe(0);
    const moved = await app.control.advance(90 * 60_000);
    expect(moved.clock_offset_ms).toBe(90 * 60_000);
    expect(Date.parse(moved.now) - Date.parse(now)).toBeGreaterThanOrEqual(90 * 60_000);
    await expect(app.control.advance(-1)).rejects.toThrow(/400: ms must be a number of milliseconds, 0 or more/);
  });
});
