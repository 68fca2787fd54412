import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSessionStore, RECHECK_MS, SESSION_MAX_MS } from "@/lib/server/auth/sessions";
import { systemClock } from "@/lib/server/clock";
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

const store = () => createSessionStore(db, { idleMinutes: 30, clock: { ...systemClock, now: () => now } });
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

  it("another instance refuses a revoked session as soon as the notice arrives (LISTEN/NOTIFY), at the latest a minute later", async () => {
    const notices: string[] = [];
    const here = createSessionStore(db, {
      idleMinutes: 30,
      clock: { ...systemClock, now: () => now },
      announce: (id) => notices.push(id),
    });
    const there = store();
    const lost = store();
    const id = await here.start(trader);
    expect(await there.use(id)).not.toBeNull();
    expect(await lost.use(id)).not.toBeNull();
    await here.revoke(id);
    expect(notices).toEqual([id]);
    // The notice reaches `there` at once; `lost` missed it (a dropped connection) and reads the row within the minute.
    there.ended(id);
    expect(await there.use(id)).toBeNull();
    now += RECHECK_MS;
    expect(await lost.use(id)).toBeNull();
  });

  it("the role is the row's, re-read at least every minute", async () => {
    const sessions = store();
    const id = await sessions.start(trader);
    await sessions.use(id);
    await db.updateTable("sessions").set({ user_role: "viewer" }).where("id", "=", id).execute();
    now += RECHECK_MS;
    expect(await sessions.use(id)).toMatchObject({ role: "viewer" });
  });

  it("ends after the idle timeout: only the person's own requests renew it, and never past 8 hours", async () => {
    const sessions = store();
    // Used every minute, but by background polls: idle all along.
    const polled = await sessions.start(trader);
    for (let m = 0; m < 29; m++) {
      now += minutes(1);
      expect(await sessions.use(polled)).not.toBeNull();
    }
    now += minutes(1);
    expect(await sessions.use(polled)).toBeNull();
    now += minutes(1);
    expect(await sessions.use(polled, { activity: true })).toBeNull();

    const busy = await sessions.start(trader);
    const started = now;
    while (now - started < SESSION_MAX_MS - minutes(20)) {
      now += minutes(20);
      expect(await sessions.use(busy, { activity: true })).not.toBeNull();
    }
    now = started + SESSION_MAX_MS;
    expect(await sessions.use(busy, { activity: true })).toBeNull();
  });

  it("another instance's renewal counts: a cached deadline is checked against the row before refusing", async () => {
    const here = store();
    const there = store();
    const id = await here.start(trader);
    expect(await here.use(id)).not.toBeNull();
    now += minutes(20);
    expect(await there.use(id, { activity: true })).not.toBeNull();
    now += minutes(15);
    expect(await here.use(id)).not.toBeNull();
  });
});

describe("watching a session end (the live stream)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.setSystemTime(now);
  });
  afterEach(() => vi.useRealTimers());

  const clocked = (announce?: (id: string) => void) => createSessionStore(db, { idleMinutes: 30, announce });
  /** Runs the clock on a second at a time, letting the database answer between steps. */
  async function advance(ms: number) {
    for (let left = ms; left > 0; left -= 1_000) {
      await vi.advanceTimersByTimeAsync(Math.min(1_000, left));
      await new Promise((r) => setImmediate(r));
    }
  }

  it("hears of a revocation here or by notice at once, and of one it had to read within a minute", async () => {
    const sessions = clocked();
    const ends: string[] = [];
    const a = await sessions.start(trader);
    const b = await sessions.start(trader);
    sessions.watch(a, () => ends.push("a"));
    sessions.watch(b, () => ends.push("b"));
    await sessions.revoke(a);
    expect(ends).toEqual(["a"]);
    sessions.ended(b);
    expect(ends).toEqual(["a", "b"]);

    const c = await sessions.start(trader);
    sessions.watch(c, () => ends.push("c"));
    await advance(1_000);
    await db.updateTable("sessions").set({ revoked_at: new Date().toISOString() }).where("id", "=", c).execute();
    await advance(RECHECK_MS);
    expect(ends).toEqual(["a", "b", "c"]);
  });

  it("ends at the idle timeout, unless the person was active meanwhile; and at 8 hours", async () => {
    const sessions = clocked();
    const endedAt: Record<string, number> = {};
    const idle = await sessions.start(trader);
    const busy = await sessions.start(trader);
    const started = Date.now();
    sessions.watch(idle, () => (endedAt.idle = Date.now() - started));
    sessions.watch(busy, () => (endedAt.busy = Date.now() - started));
    while (Date.now() - started < SESSION_MAX_MS + minutes(1)) {
      await advance(minutes(10));
      if (!endedAt.busy) await sessions.use(busy, { activity: true });
    }
    expect(endedAt.idle).toBeGreaterThanOrEqual(minutes(30));
    expect(endedAt.idle).toBeLessThan(minutes(30) + 2_000);
    expect(endedAt.busy).toBeGreaterThanOrEqual(SESSION_MAX_MS);
    expect(endedAt.busy).toBeLessThan(SESSION_MAX_MS + 2_000);
  });

  it("tells a watcher of a session that already ended, and stops telling one that stopped watching", async () => {
    const sessions = clocked();
    const ends: string[] = [];
    const gone = await sessions.start(trader);
    await sessions.revoke(gone);
    sessions.watch(gone, () => ends.push("gone"));
    const kept = await sessions.start(trader);
    const stop = sessions.watch(kept, () => ends.push("kept"));
    stop();
    await advance(1_000);
    await sessions.revoke(kept);
    expect(ends).toEqual(["gone"]);
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
