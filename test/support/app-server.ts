import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { testControl, type TestControl } from "./test-control";

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface AppServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Output so far, for a failing test's message. */
  log(): string;
  /** Where a controlled app's output is also written, for the test files of other processes (shared-app.ts). */
  logFile?: string;
  /** The runtime's test control, when started with `control` (test/support/test-control.ts). */
  control?: TestControl;
  /** Its secret, to hand to another test process (shared-app.ts). */
  controlSecret?: string;
  /** SIGTERM (or `signal`) and wait for the exit; the data directory is kept for a restart. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops and removes the data directory. */
  dispose(): Promise<void>;
}

/** How the app is started: `next start` in the repository, or another server script in its own folder. */
export interface Launch {
  cwd: string;
  args: string[];
}

/**
 * The built dashboard (`next start`) with its embedded sandbox, on a free port and its
 * own data directory, exactly as `npm start` runs it. Needs `npm run build` first.
 */
export async function startApp(
  env: Record<string, string> = {},
  dataDir?: string,
  options: {
    /** Run something else instead of `next start` (the standalone folder's `node server.js`). */
    launch?: Launch;
    /** The path that answers 200 once the app is up (the sandbox's markets by default). */
    upPath?: string;
    /**
     * With the runtime's test control (lib/server/ops/test-control.ts): tests reset it to their
     * own settings and data, and move its clock, instead of starting a server of their own.
     */
    control?: boolean;
  } = {},
): Promise<AppServer> {
  const { launch, upPath = "/sandbox/v2/markets" } = options;
  const controlSecret = options.control ? randomBytes(24).toString("hex") : undefined;
  if (!launch && !existsSync(".next/BUILD_ID"))
    throw new Error("No production build: run `npm run build` before the integration tests.");
  const port = await freePort();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "dashboard-test-"));
  // A controlled app's resets make their data directories under its TMPDIR: one of its own, gone
  // with the app (the scratch files may be in memory: test/support/scratch.mts).
  const scratch = controlSecret ? mkdtempSync(join(tmpdir(), "dashboard-scratch-")) : undefined;
  let output = "";
  const child = spawn(
    process.execPath,
    launch?.args ?? ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: launch?.cwd,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: dir,
        SANDBOX_MARKET_MAKER: "off",
        SANDBOX_TOKEN_RATE_PER_SECOND: "50",
        SANDBOX_API_RATE_PER_SECOND: "100000",
        SANDBOX_TRANSFER_RATE_PER_SECOND: "100000",
        SANDBOX_ORDER_BOOK_RATE_PER_SECOND: "100000",
        // The dashboard's budget for "a real service" (the fault proxy): as generous as the sandbox above.
        SERVICE_API_RATE_PER_SECOND: "100000",
        SERVICE_TRANSFER_RATE_PER_SECOND: "100000",
        SERVICE_ORDER_BOOK_RATE_PER_SECOND: "100000",
        SERVICE_TOKEN_RATE_PER_SECOND: "50",
        NEXT_TELEMETRY_DISABLED: "1",
        // Strong enough for the tests that point the app at "a real service" (the fault proxy).
        DEMO_PASSWORD: TEST_PASSWORD,
        // A real service needs the dashboard's public URL; here it is this very address. A
        // controlled app may be reset to talk to "a real service" (the fault proxy) too.
        ...(env.SERVICE_BASE_URL || controlSecret ? { NEXTAUTH_URL: `http://127.0.0.1:${port}` } : {}),
        ...(controlSecret ? { DASHBOARD_TEST_CONTROL: controlSecret, TMPDIR: scratch! } : {}),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  // A controlled app serves the files of other processes: its output goes to a file they can read.
  const logFile = controlSecret ? join(dir, "..", `${basename(dir)}.log`) : undefined;
  const keep = (d: Buffer) => {
    output += d;
    if (logFile) appendFileSync(logFile, d);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, child, () => output, undefined, upPath);
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    port,
    dataDir: dir,
    process: child,
    log: () => output,
    control: controlSecret ? testControl(url, controlSecret) : undefined,
    controlSecret,
    logFile,
    stop,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      if (logFile) rmSync(logFile, { force: true });
    },
  };
}

/** Polls the sandbox's markets (or `upPath`) until the dashboard answers; fails at once if it exits. */
export async function waitUntilUp(
  url: string,
  child: ChildProcess,
  log: () => string,
  timeoutMs = 60_000,
  upPath = "/sandbox/v2/markets",
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the dashboard exited while starting:\n${log()}`);
    try {
      const res = await fetch(`${url}${upPath}`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the dashboard did not start within ${timeoutMs / 1000} s:\n${log()}`);
}

/** The demo users' password in the apps the tests start (DEMO_PASSWORD). */
export const TEST_PASSWORD = "correct-horse-battery-staple";

/**
 * Where a test's requests go: a running app over HTTP (`url` alone), or the route handlers in
 * the test's own process (test/support/in-process.ts: its `fetch`, and its sign-in through the
 * app's own next-auth options without next-auth's HTTP plumbing).
 */
export interface Target {
  url: string;
  fetch?: typeof fetch;
  /** The session cookie of a sign-in with these credentials, or null when refused. */
  signIn?: (email: string, password: string) => Promise<string | null>;
}

/** A signed-in staff member's client: session cookie plus the dashboard's own Origin. */
export async function signIn(app: Target, email: string, password = TEST_PASSWORD) {
  const doFetch = app.fetch ?? fetch;
  const jar = new Map<string, string>();
  const remember = (setCookies: string[]) => {
    for (const c of setCookies) {
      const [pair] = c.split(";");
      const [name, ...value] = pair!.split("=");
      jar.set(name!, value.join("="));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  if (app.signIn) {
    const session = await app.signIn(email, password);
    if (session) remember([session]);
  } else {
    const csrf = await doFetch(`${app.url}/api/auth/csrf`);
    remember(csrf.headers.getSetCookie());
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await doFetch(`${app.url}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie(), Origin: app.url },
      body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
      redirect: "manual",
    });
    remember(res.headers.getSetCookie());
  }
  const signedIn = [...jar.keys()].some((k) => k.endsWith("next-auth.session-token"));
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const r = await doFetch(`${app.url}${path}`, {
      method,
      headers: {
        Cookie: cookie(),
        Origin: app.url,
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
    });
    const text = await r.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: r.status, headers: r.headers, body: parsed };
  }
  /** The jar as a browser context takes it (Playwright's `addCookies`). */
  const browserCookies = () => [...jar].map(([name, value]) => ({ name, value, url: app.url }));
  return { signedIn, call, cookie, browserCookies };
}

/** Signs the session of `cookie` out through next-auth, as the dashboard's Sign out button does. */
export async function signOut(app: { url: string }, cookie: string): Promise<void> {
  const csrf = await fetch(`${app.url}/api/auth/csrf`, { headers: { Cookie: cookie } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${app.url}/api/auth/signout`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: app.url },
    body: new URLSearchParams({ csrfToken, json: "true" }),
    redirect: "manual",
  });
  if (res.status >= 400) throw new Error(`sign-out answered ${res.status}`);
}
