/**
 * The server's memory under hostile bodies: 10,000 of them across every POST route (after as
 * many to warm the heap to its working size), then the lowest RSS of ten quiet seconds, before
 * and after. The goal: back within 10% (exits 1 past it). The rule that every answer is a 4xx
 * problem is test/integration/app/fuzz.test.ts's.
 *
 *   npm run build && npm run bench:fuzz
 */
import { readFileSync } from "node:fs";
import { signIn, startApp } from "../support/app-server";
import { startFaultProxy } from "../support/fault-proxy";
import { fuzz, fuzzTokens } from "../support/fuzz";
import { sandboxClient } from "../support/sandbox-server";

const rssBytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

/** The lowest of ten samples over ten quiet seconds: what the server keeps, not what a GC has yet to return. */
async function settledRss(pid: number) {
  let lowest = Infinity;
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    lowest = Math.min(lowest, rssBytes(pid));
  }
  return lowest;
}

const TOTAL = 10_000;

async function main() {
  // As the integration tests run it: the app talks to its sandbox through a (fault-free) proxy.
  const proxy = await startFaultProxy();
  const server = await startApp({ ...proxy.env(), SERVICE_TIMEOUT_MS: "2000" });
  proxy.setTarget(server.port);
  try {
    const as = {
      trader: await signIn(server, "trader@example.com"),
      ops: await signIn(server, "ops@example.com"),
      admin: await signIn(server, "admin@example.com"),
      approver: await signIn(server, "approver@example.com"),
    };
    const app = { url: server.url, as, tokens: await fuzzTokens(sandboxClient(server.url)) };
    const pid = server.process.pid!;
    let before = 0;
    const { failures, byStatus, seconds, routes } = await fuzz(app, TOTAL, {
      warmup: TOTAL,
      between: async () => void (before = await settledRss(pid)),
    });
    const after = await settledRss(pid);
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    const growth = ((after - before) / before) * 100;
    console.log(
      `fuzz: ${TOTAL} hostile requests over ${routes} POST routes in ${seconds.toFixed(1)} s; ` +
        `statuses ${JSON.stringify(Object.fromEntries([...byStatus].sort()))}; ` +
        `server RSS ${mb(before)} MB before, ${mb(after)} MB after (${growth.toFixed(1)}%, goal: at most 10%)`,
    );
    if (failures.length > 0) console.log(`failures:\n${failures.join("\n")}`);
    process.exitCode = failures.length > 0 || growth > 10 ? 1 : 0;
  } finally {
    await server.dispose();
    await proxy.close();
  }
}

void main();
