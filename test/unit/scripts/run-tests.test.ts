import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../../scripts/run-tests.mjs", import.meta.url));

/** `node -e` of `code`, as an npm script. */
const node = (code: string) => `node -e ${JSON.stringify(code)}`;

/** Polls for `file` every 20 ms, then runs `then`; exits 1 after 20 s without it. */
const waitFor = (file: string, then: string) =>
  `const fs = require('fs'); const t = Date.now(); (function poll() { ` +
  `if (fs.existsSync('${file}')) { ${then} } else if (Date.now() - t > 20000) process.exit(1); ` +
  `else setTimeout(poll, 20); })();`;

/**
 * A shell line: exits 5 unless the build is done, prints the script's priority, then does `then`.
 * The checks are shell lines, not node: a case starts some fifteen processes.
 */
const afterBuild = (name: string, then = "") => `[ -f built ] || exit 5; echo "${name} at priority $(nice)"; ${then}`;

// ESLint leaves `linting` as it starts, and the build waits for it: it runs beside the build. The
// build leaves `built`; the type check and the circle check need it, and the type check leaves
// `checked`; the tests need both, so they pass only when the build came first and the checks ran
// beside them.
const passing = {
  "lint:eslint": `touch linting; echo "eslint at priority $(nice)"`,
  "lint:prettier": "echo prettier",
  // Says whether it was asked to write Turbopack's cache (TURBOPACK_CACHE).
  build: node(
    waitFor(
      "linting",
      "fs.writeFileSync('built', ''); console.log('building, cache ' + (process.env.TURBOPACK_CACHE ?? 'kept'));",
    ),
  ),
  typecheck: afterBuild("typecheck", "touch checked"),
  cycles: afterBuild("cycles"),
  // Ends with `--`: what npm appends after it (the arguments) is the script's, not node's.
  "test:run": `${node(
    "if (!require('fs').existsSync('built')) process.exit(6); " +
      waitFor("checked", "console.log('tests with ' + JSON.stringify(process.argv.slice(1)));"),
  )} --`,
};

/** The line `npm test` prints before the checks' output, with their result. */
const checksLine = (result: string) =>
  new RegExp(String.raw`── static checks \(npm run static, beside the build and the tests\): ${result} in [\d.]+ s\n`);

/**
 * npm as the runner calls it (`npm run --silent NAME [-- ARGS]`), without npm's half second of
 * start-up: the fixture's script NAME in a shell, ARGS after it, its exit status passed on.
 */
const FAKE_NPM = `
const { spawnSync } = require("node:child_process");
const [name, ...rest] = process.argv.slice(4);
const args = rest.slice(1).map((a) => JSON.stringify(a)).join(" ");
const { scripts } = require(require("node:path").resolve("package.json"));
process.exit(spawnSync(scripts[name] + " " + args, { shell: true, stdio: "inherit" }).status ?? 1);
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "run-tests-"));
  writeFileSync(join(dir, "npm.cjs"), FAKE_NPM);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(scripts: Record<string, string>, ...args: string[]) {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "fixture", private: true, scripts }));
  // The fixture's own build folder (.next), and no cache setting of this run's.
  const env: NodeJS.ProcessEnv = { ...process.env, npm_execpath: join(dir, "npm.cjs") };
  delete env.NEXT_DIST_DIR;
  delete env.TURBOPACK_CACHE;
  const result = spawnSync(process.execPath, [script, ...args], { cwd: dir, env, encoding: "utf8", timeout: 50_000 });
  return { status: result.status, output: result.stdout + result.stderr };
}

// Each case starts node a few times: a second on a busy machine.
describe("scripts/run-tests.mjs (npm test)", { timeout: 60_000 }, () => {
  // Four runs: each starts some fifteen processes, the checks' at nice 19, which wait for an idle
  // core while the other test files keep both busy.
  it("builds with ESLint and Prettier beside it, without writing Turbopack's cache where there is none, then runs the tests (given its arguments) with the type and circle checks beside them, the checks at nice 19, and passes when all pass", () => {
    const { status, output } = run(passing, "--project", "unit");
    expect(output).toMatch(/^building, cache off\n/);
    expect(output).toContain('tests with ["--project","unit"]');
    expect(output).toMatch(checksLine("passed"));
    for (const name of ["lint:eslint", "lint:prettier", "typecheck", "cycles"]) {
      expect(output).toMatch(new RegExp(`── ${name}: passed in [\\d.]+ s\\n`));
    }
    expect(output).toContain("eslint at priority 19");
    expect(output).toContain("typecheck at priority 19");
    expect(status).toBe(0);
  });

  /** A failed check, printed when the checks end and again after the tests, which ran to their end. */
  function expectFailedCheck(output: string) {
    const failed = new RegExp(`${checksLine("FAILED").source}[^]*?src/a\\.ts: error`, "g");
    expect(output.match(failed)).toHaveLength(2);
    expect(output).toContain("npm test will fail; the tests go on");
    expect(output).toContain("tests with []");
  }

  it("fails when the type check fails, printing it at once and again after the tests; keeps Turbopack's cache where there is one", () => {
    mkdirSync(join(dir, ".next", "cache", "turbopack"), { recursive: true });
    const typecheck = afterBuild("typecheck", "echo 'src/a.ts: error TS2322'; touch checked; exit 2");
    const { status, output } = run({ ...passing, typecheck });
    expect(output).toMatch(/^building, cache kept\n/);
    expectFailedCheck(output);
    // scripts/run-parallel.mjs's status: 1 when any check fails.
    expect(status).toBe(1);
  });

  it("fails when ESLint fails, printing it at once and again after the tests; with the tests' status when they fail too", () => {
    const eslint = "touch linting; echo 'src/a.ts: error no-unused-vars'; exit 2";
    const tests = `${node(waitFor("checked", "console.log('tests with []'); process.exit(4);"))} --`;
    const { status, output } = run({ ...passing, "lint:eslint": eslint, "test:run": tests });
    expectFailedCheck(output);
    expect(status).toBe(4);
  });

  it("stops at a failed build: neither the type check nor the tests run; ESLint and Prettier, started beside it, are printed", () => {
    const { status, output } = run({ ...passing, build: node("console.error('build broke'); process.exit(3)") });
    expect(output).toContain("build broke");
    expect(existsSync(join(dir, "checked"))).toBe(false);
    expect(output).not.toContain("── typecheck");
    expect(output).toMatch(/── lint:eslint: passed/);
    expect(output).not.toContain("tests with");
    expect(status).toBe(3);
  });
});
