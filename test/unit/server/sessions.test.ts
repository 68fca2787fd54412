import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSessionStore, RECHECK_MS, SESSION_MAX_MS } from "@/lib/server/auth/sessions";
import { createDb, type Db } from "@/lib/server/db";

let dir: string;
let db: Db;
let now: number;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sessions-"));
  db = await createDb({ kind: "sqlite", file: path.join(dir, "dashboard.db") });
  now = Date.parse("2026-01-01T08:00:00Z");
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const store = () => createSessionStore(db, { idleMinutes: 30, now: () => now });
const trader = { email: "trader@example.com", role: "trader" as const, provider: "credentials", ip: "203.0.113.7" };
const minutes = (n: number) => n * 60_000;

describe("sessions", () => {
  it("a sign-in is a row an admin sees (user, IP, started, last seen); revoking ends it at once", async () => {
    const sessions = store();
    const id = await sessions.start(trader);
    expect(await sessions.use(id)).toEqual({ email: trader.email, role: "trader" });
    expect(await sessions.active()).toEqual([
      expect.objectContaining({ id, user_email: trader.email, ip: "203.0.113.7", started_at: expect.any(String) }),
    ]);
    expect(await sessions.revoke(id)).toMatchObject({ id });
    expect(await sessions.use(id)).toBeNull();
    expect(await sessions.active()).toEqual([]);
    expect(await sessions.revoke(id)).toBeNull();
  });

  it("another instance sees a revocation within a minute", async () => {
    const here = store();
    const there = store();
    const id = await here.start(trader);
    expect(await there.use(id)).not.toBeNull();
    await here.revoke(id);
    now += RECHECK_MS;
    expect(await there.use(id)).toBeNull();
  });

  it("the role is the row's, re-read at least every minute", async () => {
    const sessions = store();
    const id = await sessions.start(trader);
    await sessions.use(id);
    await db.updateTable("sessions").set({ user_role: "viewer" }).where("id", "=", id).execute();
    now += RECHECK_MS;
    expect(await sessions.use(id)).toMatchObject({ role: "viewer" });
  });

  it("ends after the idle timeout; use keeps it alive, but never past 8 hours", async () => {
    const sessions = store();
    const idle = await sessions.start(trader);
    now += minutes(31);
    expect(await sessions.use(idle)).toBeNull();

    const busy = await sessions.start(trader);
    const started = now;
    while (now - started < SESSION_MAX_MS - minutes(20)) {
      now += minutes(20);
      expect(await sessions.use(busy)).not.toBeNull();
    }
    now = started + SESSION_MAX_MS;
    expect(await sessions.use(busy)).toBeNull();
  });
});

describe("files holding secrets", () => {
  it("the databases and kept secrets are readable by their owner only (0600)", async () => {
    const { statSync } = await import("node:fs");
    const { SandboxStore } = await import("@/lib/sandbox/store");
    const { keptSecret } = await import("@/lib/server/secrets");
    const sandboxFile = path.join(dir, "sandbox.db");
    new SandboxStore(sandboxFile).close();
    keptSecret(dir, "auth-secret");
    for (const file of [sandboxFile, path.join(dir, "dashboard.db"), path.join(dir, "auth-secret")]) {
      expect(statSync(file).mode & 0o777, file).toBe(0o600);
    }
  });
});
