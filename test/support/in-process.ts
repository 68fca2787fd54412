import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { User } from "next-auth";
import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { serveSandbox } from "@/lib/sandbox/http/serve";
import { movableClock, type MovableClock } from "@/lib/server/clock";
import { parseEnv } from "@/lib/server/env-schema";
import { PEER_HEADER } from "@/lib/server/http/peer-address";
import { startRuntime } from "@/lib/server/ops/start";
import { closeRuntime, install, type Runtime } from "@/lib/server/runtime";
import { withCaller } from "@/lib/server/auth/caller";
import { authOptionsFor } from "@/lib/server/auth/options";
import { inProcessFetch } from "@/lib/server/upstream/in-process";
import { faultyFetch, type Faults } from "./faults";
import { TEST_PASSWORD_COST } from "@/lib/server/auth/password";

/**
 * The dashboard's route handlers called in this process, against a runtime made for the test:
 * no server, no socket, about a millisecond a call. The routes project (test/routes) runs here
 * what needs no HTTP: who may do what, the controls, approvals, the journal, upstream faults.
 * What only HTTP shows (the proxy's headers, next-auth's sign-in, Next's body cap, the pages)
 * stays with the integration project's one running server.
 *
 * The runtime talks to its sandbox as to "a real service" (SERVICE_BASE_URL at this app's own
 * origin, as the fault proxy sets it up over HTTP), through the in-process faults of
 * test/support/faults.ts. Its clock is the test's to move.
 */

export interface InProcessApp {
  /** The origin requests are addressed to (nothing listens on it). */
  url: string;
  /** fetch's contract, served by the route handlers. */
  fetch: typeof fetch;
  runtime: Runtime;
  clock: MovableClock;
  /** What stands between the dashboard and its sandbox: the faults, and every request that reached it. */
  faults: Faults;
  /**
   * The session cookie of a sign-in with these credentials (null when refused): the app's own
   * next-auth options (the credentials check with its throttle, the callbacks that start the
   * session's row, the audited event), without next-auth's HTTP plumbing, which only a running
   * server has (its sign-in is tested there).
   */
  signIn(email: string, password: string): Promise<string | null>;
  close(): Promise<void>;
}

export interface InProcessOptions {
  env?: Record<string, string>;
  /** A fresh PostgreSQL database's URL (test/support/databases.ts freshPostgresDatabase); SQLite otherwise. */
  databaseUrl?: string;
  /**
   * Something of the test's in front of "the service" (a strict double, test/support/strict-double.ts):
   * given the way on to the sandbox (through the faults), the fetch the dashboard's calls go through.
   */
  wrapService?: (service: typeof fetch) => typeof fetch;
}

/** The origin of every in-process app: what the runtime believes its address is. */
const ORIGIN = "http://127.0.0.1:3999";

/** The settings of "a real service" at this app's own origin, as the fault proxy's env() gives over HTTP. */
const SERVICE_SETTINGS = {
  PORT: "3999",
  SERVICE_BASE_URL: `${ORIGIN}/sandbox/v2`,
  SERVICE_AUTH_URL: `${ORIGIN}/sandbox/oauth2/token`,
  SERVICE_CLIENT_ID: "dashboard",
  SERVICE_CLIENT_SECRET: "sandbox-secret",
  SANDBOX: "on",
  DEMO_USERS: "on",
  DEMO_PASSWORD: "correct-horse-battery-staple",
  AUDIT_SECRET: "an-audit-key-for-the-tests-of-32-chars",
  NEXTAUTH_URL: ORIGIN,
  SANDBOX_MARKET_MAKER: "off",
  SANDBOX_TOKEN_RATE_PER_SECOND: "50",
  SANDBOX_API_RATE_PER_SECOND: "100000",
  SANDBOX_TRANSFER_RATE_PER_SECOND: "100000",
  SANDBOX_ORDER_BOOK_RATE_PER_SECOND: "100000",
  SERVICE_API_RATE_PER_SECOND: "100000",
  SERVICE_TRANSFER_RATE_PER_SECOND: "100000",
  SERVICE_ORDER_BOOK_RATE_PER_SECOND: "100000",
  SERVICE_TOKEN_RATE_PER_SECOND: "50",
  SERVICE_TIMEOUT_MS: "2000",
  LOG_LEVEL: "silent",
};

/**
 * Builds the runtime from the settings, installs it as the process's (what `withRole` asks for)
 * and starts its background work. One at a time per test file: close it in afterAll.
 */
export async function startInProcess(options: InProcessOptions = {}): Promise<InProcessApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "in-process-"));
  const config = parseEnv({
    ...SERVICE_SETTINGS,
    ...options.env,
    DATA_DIR: dataDir,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });
  const clock = movableClock({ skipSleeps: true });
  // A "delay" ends when the test moves the runtime's clock past it; what reaches the service is stamped on it.
  const faults = faultyFetch({ now: clock.now, wait: (ms) => new Promise((resolve) => clock.after(ms, resolve)) });
  const service = options.wrapService ? options.wrapService(faults.fetch) : faults.fetch;
  await closeRuntime();
  const runtime = await install(config, { clock, serviceFetch: () => service, passwordCost: TEST_PASSWORD_COST });
  // The service's address is this app's own /sandbox: served by the sandbox in this process.
  faults.setTarget(inProcessFetch((request) => serveSandbox(request, runtime.sandbox, "127.0.0.1")));
  await startRuntime();
  return {
    url: ORIGIN,
    fetch: (input, init) => dispatch(heldWhile(init?.signal, new Request(input, init))),
    runtime,
    clock,
    faults,
    signIn: (email, password) => withCaller("127.0.0.1", () => credentialsSignIn(runtime, email, password)),
    async close() {
      await closeRuntime();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Keeps `request` for as long as `signal` (what it was made from) lives. A Request's signal follows
 * the one it was made from through an AbortController only the Request holds (nodejs/undici#1926):
 * a route keeps `request.signal` and lets the Request go, and once that is collected an abort no
 * longer reaches the route (a closed event stream kept its place). A server holds its requests
 * while it answers.
 */
function heldWhile<R extends Request>(signal: AbortSignal | null | undefined, request: R): R {
  signal?.addEventListener("abort", () => void request, { once: true });
  return request;
}

/** next-auth's credentials callback, step by step, with the app's options for `rt`. */
async function credentialsSignIn(rt: Runtime, email: string, password: string): Promise<string | null> {
  const options = authOptionsFor(rt);
  const provider = options.providers.find((p) => p.id === "credentials") as
    { options: { authorize(credentials: Record<string, string>, request: unknown): Promise<User | null> } } | undefined;
  if (!provider) return null;
  const user = await provider.options.authorize({ email, password }, {}).catch(() => null);
  if (!user) return null;
  const account = { provider: "credentials", type: "credentials" as const, providerAccountId: user.id };
  if ((await options.callbacks!.signIn!({ user, account })) !== true) return null;
  const token = await options.callbacks!.jwt!({
    token: { name: user.name, email: user.email, sub: user.id },
    user,
    account,
    trigger: "signIn",
  });
  await options.events!.signIn!({ user, account, isNewUser: false });
  const jwt = await encode({ token, secret: options.secret!, maxAge: options.session!.maxAge });
  return `next-auth.session-token=${jwt}`;
}

type Handler = (
  request: NextRequest,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;

/** Every route handler of the app, by its file, loaded on first use. */
const modules = import.meta.glob<RouteModule>("/app/**/route.ts");

/** The app's route handler files, as written ("/app/api/approvals/[id]/route.ts"). */
export const routeFiles = (): string[] => Object.keys(modules).sort();

interface Route {
  file: string;
  pattern: RegExp;
  params: { name: string; rest: boolean }[];
  /** Static routes before dynamic ones, catch-alls last, as Next matches them. */
  rank: number;
}

const routes: Route[] = Object.keys(modules)
  .map((file) => {
    const segments = file
      .replace(/^\/app/, "")
      .replace(/\/route\.ts$/, "")
      .split("/")
      .filter((s) => s && !/^\(.*\)$/.test(s));
    const params: Route["params"] = [];
    let rank = 0;
    const source = segments
      .map((segment) => {
        const rest = /^\[\.\.\.(\w+)\]$/.exec(segment);
        if (rest) {
          params.push({ name: rest[1]!, rest: true });
          rank += 100;
          return "/(.+)";
        }
        const one = /^\[(\w+)\]$/.exec(segment);
        if (one) {
          params.push({ name: one[1]!, rest: false });
          rank += 1;
          return "/([^/]+)";
        }
        return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      })
      .join("");
    return { file, pattern: new RegExp(`^${source || "/"}$`), params, rank };
  })
  .sort((a, b) => a.rank - b.rank);

/**
 * One request, as Next would route it to its handler: the path's route, the method's export
 * (405 without one), the path's parameters. The connection's address is stamped as
 * http/incoming.ts does for a loopback caller, overwriting whatever the request claimed, and
 * the Host header set as an HTTP client sets it.
 */
export async function dispatch(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  for (const route of routes) {
    const found = route.pattern.exec(pathname);
    if (!found) continue;
    const handler = (await modules[route.file]!())[request.method];
    if (!handler) return new Response(null, { status: 405 });
    const params = Object.fromEntries(
      route.params.map((p, i) => {
        const raw = found[i + 1]!;
        return [p.name, p.rest ? raw.split("/").map(decodeURIComponent) : decodeURIComponent(raw)];
      }),
    );
    const headers = new Headers(request.headers);
    headers.set(PEER_HEADER, "127.0.0.1");
    // What an HTTP client always sends (NextRequest's own URL says "localhost" for 127.0.0.1).
    if (!headers.has("host")) headers.set("host", new URL(request.url).host);
    const next = heldWhile(request.signal, new NextRequest(request, { headers }));
    return handler(next, { params: Promise.resolve(params) });
  }
  return new Response(null, { status: 404 });
}
