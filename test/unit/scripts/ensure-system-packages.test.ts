import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../../scripts/ensure-system-packages.sh", import.meta.url));

/**
 * The script against stand-ins for apt-get, sudo and id that record what they are asked.
 * PostgreSQL is taken as provided (TEST_DATABASE_URL): Chromium's headless shell, at a path of
 * the test's own, is the package that is or is not there.
 */
let dir: string;
let chromium: string;
let log: string;

function stub(name: string, body: string) {
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
}

function run(path: string) {
  const result = spawnSync("/bin/bash", [script], {
    env: {
      NODE_ENV: "test",
      PATH: path,
      CHROMIUM_PATH: chromium,
      TEST_DATABASE_URL: "postgres://elsewhere/db",
      STUB_LOG: log,
    },
    encoding: "utf8",
  });
  const calls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
  return { status: result.status, stderr: result.stderr, calls };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ensure-packages-"));
  chromium = join(dir, "chromium");
  log = join(dir, "calls.log");
  // apt-get records its arguments (and DEBIAN_FRONTEND); "installing" makes the browser appear.
  stub(
    "apt-get",
    `echo "DEBIAN_FRONTEND=\${DEBIAN_FRONTEND:-} $*" >> "$STUB_LOG"
if [ "$1" = install ]; then printf '#!/bin/sh\\n' > "$CHROMIUM_PATH"; chmod +x "$CHROMIUM_PATH"; fi`,
  );
  stub("sudo", 'exec "$@"');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("scripts/ensure-system-packages.sh", () => {
  it("does nothing, not even apt-get update, when the packages are there", () => {
    writeFileSync(chromium, "#!/bin/sh\n", { mode: 0o755 });
    const { status, calls } = run(`${dir}:${process.env.PATH}`);
    expect(status).toBe(0);
    expect(calls).toEqual([]);
  });

  it("installs what is missing, without questions and with its recommended packages", () => {
    const { status, calls } = run(`${dir}:${process.env.PATH}`);
    expect(status).toBe(0);
    expect(calls).toEqual([
      "DEBIAN_FRONTEND= update",
      "DEBIAN_FRONTEND=noninteractive install -y -o APT::Install-Recommends=true chromium-headless-shell",
    ]);
    expect(existsSync(chromium)).toBe(true);
  });

  it("says plainly what to install when it cannot (not root, no sudo)", () => {
    rmSync(join(dir, "sudo"));
    stub("id", "echo 1000");
    // Only the stand-ins on PATH: no sudo to find.
    const { status, stderr, calls } = run(dir);
    expect(status).toBe(1);
    expect(stderr).toContain("not root, and no sudo");
    expect(stderr).toContain("apt-get update && apt-get install -y chromium-headless-shell");
    expect(calls).toEqual([]);
  });

  it("fails with the same advice when apt-get fails", () => {
    stub("apt-get", 'echo "DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-} $*" >> "$STUB_LOG"; exit 100');
    const { status, stderr, calls } = run(`${dir}:${process.env.PATH}`);
    expect(status).toBe(1);
    expect(stderr).toContain("apt-get install -y chromium-headless-shell");
    expect(calls).toEqual(["DEBIAN_FRONTEND= update"]);
  });
});
