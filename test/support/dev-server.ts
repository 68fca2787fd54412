import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitUntilUp } from "./app-server";

export interface DevServer {
  /** The loopback address, not `localhost`: the host Next does not allow by itself. */
  url: string;
  /** Output so far, for a failing test's message. */
  log(): string;
  /** Stops the server (and its next-server child) and removes its data directory. */
  dispose(): Promise<void>;
}

/** Dev compiles each route on its first request: slow on a small machine. */
const START_TIMEOUT_MS = 180_000;

/**
 * `next dev` as `npm run dev` runs it (no `-H`, so Next knows no hostname but localhost),
 * on a free port and its own data directory. It builds into `.next/test-dev`
 * (NEXT_DIST_DIR), apart from the production build the other tests start and from a dev
 * server someone may be running.
 */
export async function startDevServer(env: Record<string, string> = {}): Promise<DevServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "dashboard-dev-test-"));
  let output = "";
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "dev", "-p", String(port)], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      NEXT_DIST_DIR: ".next/test-dev",
      PORT: String(port),
      DATA_DIR: dataDir,
      SANDBOX_MARKET_MAKER: "off",
      NEXT_TELEMETRY_DISABLED: "1",
      // The next build removes its folder: a cache written there would never be read (next.config.js).
      TURBOPACK_CACHE: "off",
      ...env,
    },
    // Its own process group, so that stopping it also stops the next-server it forks.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(url, child, () => output, START_TIMEOUT_MS);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { url, log: () => output, dispose };
}
