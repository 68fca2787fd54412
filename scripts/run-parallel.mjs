// Runs the named npm scripts side by side (`npm run static`: the type check, ESLint, Prettier and
// the import-circle check at once, which wait on one another for nothing) and fails if any fails.
// Each one's output is held and printed whole when it ends, under a line with its name, result
// and time, so two tools' lines never interleave and a failure reads as its tool printed it.
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error("usage: node scripts/run-parallel.mjs SCRIPT...");
  process.exit(2);
}

// The npm that runs this script (npm sets npm_execpath), else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];

function run(name) {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(npm[0], [...npm.slice(1), "run", "--silent", name], { stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
    child.on("error", (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (code, signal) => {
      const ok = code === 0;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const how = ok ? "passed" : `FAILED (${signal ?? `exit ${code}`})`;
      const output = Buffer.concat(chunks).toString().trimEnd();
      process.stdout.write(`\n── ${name}: ${how} in ${seconds} s\n${output ? `${output}\n` : ""}`);
      done({ name, ok });
    });
  });
}

const results = await Promise.all(names.map(run));
const failed = results.filter((r) => !r.ok).map((r) => r.name);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(", ")}`);
  process.exitCode = 1;
}
