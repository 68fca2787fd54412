import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../../scripts/run-parallel.mjs", import.meta.url));

/** `node -e` of `code`, as an npm script. */
const node = (code: string) => `node -e ${JSON.stringify(code)}`;

// "waits" passes only once "signals" has run: run one after the other in that order, it fails.
const scripts = {
  waits: node(
    "const fs = require('fs'); const t = Date.now(); " +
      "(function poll() { if (fs.existsSync('signal')) console.log('saw the signal'); " +
      "else if (Date.now() - t > 20000) process.exit(1); else setTimeout(poll, 20); })();",
  ),
  signals: node("require('fs').writeFileSync('signal', ''); console.log('signalled');"),
  fails: node("console.log('some output'); console.error('what went wrong'); process.exit(3);"),
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "run-parallel-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "fixture", private: true, scripts }));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(...names: string[]) {
  const result = spawnSync(process.execPath, [script, ...names], { cwd: dir, encoding: "utf8", timeout: 50_000 });
  const output = result.stdout + result.stderr;
  /** What was printed under the line that names `name`, that line included. */
  const section = (name: string) => output.split("\n── ").find((part) => part.startsWith(`${name}: `)) ?? "";
  return { status: result.status, output, section };
}

// Each case starts npm twice: a second on its own, far more on a busy machine.
describe("scripts/run-parallel.mjs", { timeout: 60_000 }, () => {
  it("runs the scripts side by side and passes when all pass", () => {
    const { status, section } = run("waits", "signals");
    expect(section("waits")).toMatch(/^waits: passed in [\d.]+ s\nsaw the signal\n/);
    expect(section("signals")).toMatch(/^signals: passed in [\d.]+ s\nsignalled\n/);
    expect(status).toBe(0);
  });

  it("fails when one fails, with its output whole under its name", () => {
    const { status, output, section } = run("fails", "signals");
    expect(section("fails")).toMatch(/^fails: FAILED \(exit 3\) in [\d.]+ s\n/);
    expect(section("fails")).toContain("some output\n");
    expect(section("fails")).toContain("what went wrong\n");
    expect(section("signals")).toMatch(/^signals: passed/);
    expect(output).toContain("Failed: fails");
    expect(status).toBe(1);
  });
});
