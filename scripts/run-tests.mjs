// `npm test` after the system packages: the build, then the tests (`npm run test:run`), with the
// static checks (`npm run static`) beside them at the lowest CPU priority. The tests keep two
// cores busy but not always: while shared apps and services start, and at the run's tail. At
// nice 19 the checks take those idle moments and little else, where run first they held both
// cores for a minute in a fresh clone. They start after the build: both it and the type check
// (`next typegen`) write the route types the type check reads (.next/types).
//
// A failing check is printed when it ends, and the run goes on (Ctrl-C stops it); the checks'
// output is printed whole again after the tests', and either failing fails `npm test`.
// Arguments are the tests' (`npm test -- --project unit`).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

// The npm that runs this script (npm sets npm_execpath), else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];

/**
 * Runs an npm script; resolves to its exit status. `held` collects its output instead of printing
 * it; `env` is added to this process's.
 */
function run(name, { args = [], nice = false, held = null, env = {} } = {}) {
  const command = [...npm, "run", "--silent", name, ...(args.length ? ["--", ...args] : [])];
  const [file, ...rest] = nice ? ["nice", "-n", "19", ...command] : command;
  return new Promise((done) => {
    const child = spawn(file, rest, {
      env: { ...process.env, ...env },
      stdio: ["ignore", held ? "pipe" : "inherit", held ? "pipe" : "inherit"],
    });
    if (held) {
      child.stdout.on("data", (chunk) => held.push(chunk));
      child.stderr.on("data", (chunk) => held.push(chunk));
    }
    child.on("error", (error) => {
      held?.push(Buffer.from(`${error.message}\n`));
      done(1);
    });
    child.on("close", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

// Turbopack's build cache is read and kept up to date where there is one; a checkout with none (a
// fresh clone) builds once without writing one, a third faster (next.config.js).
const cached = existsSync(join(process.env.NEXT_DIST_DIR || ".next", "cache", "turbopack"));
const built = await run("build", { env: cached ? {} : { TURBOPACK_CACHE: "off" } });
if (built !== 0) process.exit(built);

const started = performance.now();
const output = [];
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
const report = (status) =>
  `\n── static checks (npm run static, beside the tests): ${status === 0 ? "passed" : "FAILED"} in ${seconds()} s\n`;
const checks = run("static", { nice: true, held: output }).then((status) => {
  if (status !== 0) {
    // Now, not after the tests: the run goes on, and a reader may stop it.
    process.stdout.write(`${report(status)}${Buffer.concat(output).toString().trimEnd()}\n`);
    process.stdout.write("npm test will fail; the tests go on (Ctrl-C to stop them).\n\n");
  }
  return { status, line: report(status) };
});
const tests = await run("test:run", { args: process.argv.slice(2) });
const { status, line } = await checks;
process.stdout.write(`${line}${Buffer.concat(output).toString().trimEnd()}\n`);
process.exitCode = tests !== 0 ? tests : status;
