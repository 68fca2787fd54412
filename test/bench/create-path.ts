/**
 * The request path of "place an order", counted rather than told: which of the project's files
 * run while one POST /api/v2/profiles/{id}/orders is handled, from the route through lib/server
 * to the embedded sandbox and back (docs/architecture.md quotes the figures).
 *
 *   npx tsx --conditions=react-server test/bench/create-path.ts
 *
 * It builds the process's runtime on a throwaway DATA_DIR (the embedded sandbox, SQLite), signs
 * a trader's session as next-auth would, and calls the route's POST as Next does. Two creates
 * warm everything up (tokens, statements, caches); the third is traced with V8's precise
 * coverage: a file counts when any of its functions ran during that create. What runs around
 * the handler (proxy.ts, the request id and log line) is not part of it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import path from "node:path";

const root = process.cwd();
const dataDir = mkdtempSync(path.join(tmpdir(), "create-path-"));
Object.assign(process.env, {
  DATA_DIR: dataDir,
  NEXTAUTH_SECRET: "create-path-bench-secret-of-32-characters",
  NEXTAUTH_URL: "http://localhost:3000",
  LOG_LEVEL: "silent",
});

interface ScriptCoverage {
  url: string;
  functions: { ranges: { count: number }[] }[];
}

/** The project's own files among V8's script URLs (node_modules and the tests left out). */
const projectFiles = (urls: string[]) =>
  urls
    .filter((url) => url.startsWith(`file://${root}/`) && !url.includes("/node_modules/"))
    .map((url) => path.relative(root, new URL(url).pathname))
    .filter((file) => !file.startsWith("test/"));

/** lib/server/create/x.ts -> lib/server/create; lib/spec/x.ts -> lib/spec. */
const folderOf = (file: string) => {
  const parts = file.split("/");
  return parts.slice(0, parts[1] === "server" && parts.length > 3 ? 3 : parts.length > 2 ? 2 : 1).join("/");
};

async function main() {
  const { runtime, closeRuntime } = await import("@/lib/server/runtime");
  const { encode } = await import("next-auth/jwt");
  const { NextRequest } = await import("next/server");
  const route = await import("@/app/api/v2/profiles/[profile_id]/orders/route");
  const rt = await runtime();
  const email = "trader@example.com";
  const sid = await rt.sessions.start({ email, role: "trader", provider: "credentials", ip: null });
  const cookie = await encode({
    token: { email, name: email, role: "trader", sid },
    secret: process.env.NEXTAUTH_SECRET!,
  });
  const profiles = await rt.upstream.request({ method: "GET", path: "/profiles" });
  const items = (profiles.body as { items: { id: string; nickname: string }[] }).items;
  const trading = items.find((p) => p.nickname === "Trading")!.id;

  let sent = 0;
  const place = async () => {
    // Each a different amount: the same order again would be asked about as a repeat.
    // The ticket always sends its own ref_id.
    const base_amount = `0.00${++sent}`;
    const body = {
      market: "BTCUSD",
      side: "BUY",
      type: "LIMIT",
      price: "1000.00",
      base_amount,
      ref_id: `path-${Date.now()}-${sent}`,
    };
    const request = new NextRequest(`http://localhost:3000/api/v2/profiles/${trading}/orders`, {
      method: "POST",
      headers: {
        cookie: `next-auth.session-token=${cookie}`,
        origin: "http://localhost:3000",
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
    const response = await route.POST(request, { params: Promise.resolve({ profile_id: trading }) });
    if (response.status !== 200) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  };
  await place();
  await place();

  const inspector = new Session();
  inspector.connect();
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  await inspector.post("Profiler.takePreciseCoverage"); // counts from here
  await place();
  const { result } = (await inspector.post("Profiler.takePreciseCoverage")) as { result: ScriptCoverage[] };
  // Every script V8 holds, whether it ran or not: the modules the process loaded.
  const parsed: string[] = [];
  inspector.on("Debugger.scriptParsed", ({ params }) => parsed.push(params.url));
  await inspector.post("Debugger.enable");
  await inspector.post("Debugger.disable");
  inspector.disconnect();

  const loaded = projectFiles(parsed);
  const ran = projectFiles(
    result.filter((s) => s.functions.some((f) => f.ranges[0]!.count > 0)).map((s) => s.url),
  ).sort();
  const byFolder = new Map<string, number>();
  for (const file of ran) byFolder.set(folderOf(file), (byFolder.get(folderOf(file)) ?? 0) + 1);
  const sandbox = ran.filter((f) => f.startsWith("lib/sandbox/")).length;

  console.log(ran.join("\n"));
  console.log("\nfiles run by one create, by folder:");
  for (const [folder, n] of [...byFolder].sort()) console.log(`  ${String(n).padStart(3)}  ${folder}`);
  console.log(`files run by one create: ${ran.length} (the dashboard ${ran.length - sandbox}, the sandbox ${sandbox})`);
  console.log(`the project's files loaded in the process: ${loaded.length}`);
  await closeRuntime();
  rmSync(dataDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
