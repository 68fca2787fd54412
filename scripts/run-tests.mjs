// `npm test` after the system packages: the build, then the tests (`npm run test:run`), with the
// static checks (those of `npm run static`) beside them at the lowest CPU priority. The tests keep
// two cores busy but not always: while shared apps and services start, and at the run's tail. At
// nice 19 the checks take those idle moments and little else, where run first they held both
// cores for a minute in a fresh clone. ESLint and Prettier read no build output: they start with
// the build and take what its one-core steps leave idle (7.5 of 59 CPU-s in 30 s). The type
// check and the import-circle check start after it: the build and the type check's `next
// typegen` both write the route types tsc reads (.next/types), and the circle check walks the
// project's folders.
//
// A failing check is printed when it ends, and the run goes on (Ctrl-C stops it); the checks'
// output is printed whole again after the tests', and either failing fails `npm test`. A failed
// build stops the run once the checks already started have ended, their output printed.
// Arguments are the tests' (`npm test -- --project unit`).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The npm that runs this script (npm sets npm_execpath), else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];

/**
 * Runs `command`; resolves to its exit status. `held` collects its output instead of printing it;
 * `env` is added to this process's.
 */
function spawned(command, { nice = false, held = null, env = {} } = {}) {
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

/** Runs an npm script (`npm run NAME -- ARGS`). */
const run = (name, { args = [], ...how } = {}) =>
  spawned([...npm, "run", "--silent", name, ...(args.length ? ["--", ...args] : [])], how);

/** Runs static checks (npm scripts) side by side at nice 19, as `npm run static` does, into `held`. */
const checking = (names, held) =>
  spawned([process.execPath, fileURLToPath(new URL("run-parallel.mjs", import.meta.url)), ...names], {
    nice: true,
    held,
  });

// Turbopack's build cache is read and kept up to date where there is one; a checkout with none (a
// fresh clone) builds once without writing one, a third faster (next.config.js).
const cached = existsSync(join(process.env.NEXT_DIST_DIR || ".next", "cache", "turbopack"));
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
const report = (status) =>
  `\n── static checks (npm run static, beside the build and the tests): ${status === 0 ? "passed" : "FAILED"} in ${seconds()} s\n`;
const [lintOutput, typesOutput] = [[], []];
const held = () =>
  Buffer.concat([...lintOutput, ...typesOutput])
    .toString()
    .trimEnd();
const lint = checking(["lint:eslint", "lint:prettier"], lintOutput);

const built = await run("build", { env: cached ? {} : { TURBOPACK_CACHE: "off" } });
if (built !== 0) {
  const status = await lint;
  process.stdout.write(`${report(status)}${held()}\n`);
  process.exit(built);
}

const checks = Promise.all([lint, checking(["typecheck", "cycles"], typesOutput)]).then((statuses) => {
  const status = statuses.find((s) => s !== 0) ?? 0;
  if (status !== 0) {
    // Now, not after the tests: the run goes on, and a reader may stop it.
    process.stdout.write(`${report(status)}${held()}\n`);
    process.stdout.write("npm test will fail; the tests go on (Ctrl-C to stop them).\n\n");
  }
  return { status, line: report(status) };
});
const tests = await run("test:run", { args: process.argv.slice(2) });
const { status, line } = await checks;
process.stdout.write(`${line}${held()}\n`);
process.exitCode = tests !== 0 ? tests : status;
