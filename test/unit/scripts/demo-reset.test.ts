import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../../scripts/demo-reset.mjs", import.meta.url));
const STATE = ["dashboard.db", "dashboard.db-wal", "sandbox.db", "sandbox.db-shm", "audit-checkpoint"];
const KEPT = ["auth-secret", "audit-key", "notes.txt"];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "demo-reset-"));
  for (const name of [...STATE, ...KEPT]) writeFileSync(join(dir, name), "x");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [script], {
    env: { NODE_ENV: "test", PATH: process.env.PATH!, DATA_DIR: dir, ...env },
    encoding: "utf8",
  });

describe("npm run demo:reset", () => {
  it("removes the demo's state, both databases and the trail's checkpoint, and keeps the keys", () => {
    const result = run();
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([...KEPT].sort());
    expect(result.stdout).toContain("The next start seeds the demo desk afresh.");
  });

  it.each([
    ["DATABASE_URL", "postgres://db/dashboard"],
    ["SERVICE_BASE_URL", "https://service.example/v2"],
  ])("refuses with %s set, removing nothing", (name, value) => {
    const result = run({ [name]: value });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${name} is set`);
    for (const file of STATE) expect(existsSync(join(dir, file))).toBe(true);
  });
});
