import { expect } from "vitest";
import type { SandboxRuntime } from "@/lib/sandbox/runtime";
import { MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID } from "@/lib/sandbox/seed";
import type { Role } from "@/lib/shared/roles";
import { signIn, startApp, type AppServer, type Target } from "./app-server";
import type { Faults } from "./faults";
import { startInProcess, type InProcessApp, type InProcessOptions } from "./in-process";
import { startFaultProxy, type FaultProxy } from "./fault-proxy";
export { eventually } from "./eventually";
import { freshPostgresDatabase } from "./databases";
import { sandboxClient } from "./sandbox-server";
import { resetApp, sharedApp } from "./shared-app";
import type { TestControl } from "./test-control";
import { SETTLEMENT, TRADING, TREASURY, newRef, smallMarketBuy, smallOrder, smallTransfer } from "./requests";

export { SETTLEMENT, TRADING, TREASURY, newRef, smallMarketBuy, smallOrder, smallTransfer };

/**
 * The built dashboard behind a fault proxy: the app talks to its own embedded sandbox
 * through `proxy` (so tests can fail, hold and count what reaches "the service"), with a
 * signed-in client per demo role and a direct sandbox client to see what really exists.
 */

export type Client = Awaited<ReturnType<typeof signIn>>;
export type Database = "sqlite" | "postgres";

export interface Dashboard {
  /** The app's base URL; follows the app across restarts. */
  readonly url: string;
  /** What reaches the service, and the faults it meets on the way (the fault proxy, or in process). */
  proxy: Faults;
  env: Record<string, string>;
  as: Record<Role, Client>;
  /** Straight to the app's sandbox with the dashboard's client credentials (not through the proxy). */
  sandbox: ReturnType<typeof sandboxClient>;
  /** Moves the runtime's clock, switches its market maker (the shared app's test control). */
  control?: TestControl;
  /** Journal entries with this ref_id, through GET /api/activity as admin. */
  journal(refId: string): Promise<JournalItem[]>;
  /** The service's orders with this ref_id. */
  sandboxOrders(refId: string): Promise<{ id: string; ref_id: string; profile_id: string }[]>;
  /** The service's transfers (both legs) with this ref_id. */
  sandboxTransfers(refId: string): Promise<{ id: string; direction: string; ref_id: string }[]>;
  dispose(): Promise<void>;
}

/** A dashboard in a process of its own: the process itself is under test. */
export interface OwnDashboard extends Dashboard {
  app: AppServer;
  proxy: FaultProxy;
  /** Kills the app (SIGKILL by default) and starts it again on the same data and database. */
  restart(signal?: NodeJS.Signals): Promise<void>;
}

export interface DashboardOptions {
  env?: Record<string, string>;
  database?: Database;
  clientSecret?: string;
}

/** The app's settings for talking to its sandbox through `proxy`, on `database`, with `options.env` over them. */
async function settingsOf(proxy: FaultProxy, options: DashboardOptions): Promise<Record<string, string>> {
  return {
    ...proxy.env(options.clientSecret),
    SERVICE_TIMEOUT_MS: String(SERVICE_TIMEOUT_MS),
    ...(options.database === "postgres" ? { DATABASE_URL: await freshPostgresDatabase() } : {}),
    ...options.env,
  };
}

/** A dashboard whose route handlers run in this process (test/support/in-process.ts): the routes project's. */
export interface InProcessDashboard extends Dashboard {
  app: InProcessApp;
  /** The in-process app as a request target (`rawCall(d.target, ...)`, `signIn(d.target, ...)`). */
  target: Target;
}

/**
 * The dashboard's route handlers called in this process against a runtime of this file's own:
 * `options` its settings, an empty database (PostgreSQL when asked), "the service" its sandbox
 * behind in-process faults, a client signed in per role. Close it with dispose().
 */
export async function inProcessDashboard(
  options: Omit<DashboardOptions, "clientSecret"> & Pick<InProcessOptions, "wrapService"> = {},
): Promise<InProcessDashboard> {
  const app = await startInProcess({
    env: options.env,
    databaseUrl: options.database === "postgres" ? await freshPostgresDatabase({ migrated: true }) : undefined,
    wrapService: options.wrapService,
  });
  const target: Target = { url: app.url, fetch: app.fetch, signIn: app.signIn };
  const { reconnect: _, ...clients } = await connect(target, options.env ?? {});
  return { ...clients, url: app.url, target, app, proxy: app.faults, dispose: () => app.close() };
}

/**
 * The project's shared app (test/support/shared-app.ts) reset to `options`: its own settings and
 * an empty database (PostgreSQL when asked), talking to its sandbox through a fault proxy of this
 * file's, with a signed-in client per role. What a file uses that needs its own settings, counts
 * what reaches the service, or injects faults; only a test of the process itself starts one.
 */
export async function resetDashboard(options: DashboardOptions = {}): Promise<Dashboard> {
  const proxy = await startFaultProxy();
  try {
    const app = sharedApp();
    const env = await settingsOf(proxy, options);
    proxy.setTarget(app.port);
    await app.control.reset(env);
    const { reconnect: _, ...clients } = await connect({ url: app.url }, env);
    return { ...clients, url: app.url, proxy, control: app.control, dispose: () => proxy.close() };
  } catch (error) {
    await proxy.close();
    throw error;
  }
}

export interface JournalItem {
  id: string;
  kind: string;
  ref_id: string;
  status: "pending" | "succeeded" | "failed" | "declined";
  created_at: string;
  duplicate_of: string | null;
  http_status: number | null;
  user_email: string;
  user_role: string;
  record: { id?: string } | null;
  problem: { status: number; title: string; detail?: string } | null;
  result_id: string | null;
  request: Record<string, unknown>;
}

const ROLE_EMAILS: Record<Role, string> = {
  viewer: "viewer@example.com",
  trader: "trader@example.com",
  ops: "ops@example.com",
  approver: "approver@example.com",
  admin: "admin@example.com",
};

/** The app's time limit for a call to the service: faults that outlast it are made from it. */
export const SERVICE_TIMEOUT_MS = 2000;

/** A signed-in client for each demo role. */
export async function signInAll(target: Target): Promise<Record<Role, Client>> {
  const entries = await Promise.all(
    (Object.keys(ROLE_EMAILS) as Role[]).map(async (role) => {
      const client = await signIn(target, ROLE_EMAILS[role]);
      if (!client.signedIn) throw new Error(`${ROLE_EMAILS[role]} could not sign in`);
      return [role, client] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Role, Client>;
}

/** The built dashboard in a process of its own, behind a fault proxy: for the tests of the process itself. */
export async function startDashboard(options: DashboardOptions = {}): Promise<OwnDashboard> {
  const proxy = await startFaultProxy();
  const env = await settingsOf(proxy, options);
  let app: AppServer;
  try {
    app = await startApp(env);
  } catch (error) {
    await proxy.close();
    throw error;
  }
  proxy.setTarget(app.port);
  // Clients read `target.url` at each call, so they follow the app across a restart.
  const target = { url: app.url };
  const clients = await connect(target, env);
  const dashboard: OwnDashboard = {
    ...clients,
    app,
    get url() {
      return target.url;
    },
    proxy,
    async restart(signal = "SIGKILL") {
      await dashboard.app.stop(signal);
      const next = await startApp(env, dashboard.app.dataDir);
      dashboard.app = next;
      proxy.setTarget(next.port);
      target.url = next.url;
      clients.reconnect();
    },
    async dispose() {
      await dashboard.app.dispose();
      await proxy.close();
    },
  };
  return dashboard;
}

/** The lane's shared app (test/support/shared-app.ts) with a signed-in client per role, its sandbox embedded. */
export type SharedDashboard = Omit<Dashboard, "proxy" | "dispose"> & { control: TestControl };

/**
 * The lane's shared app reset to `env` over its start settings, with an empty database and a
 * signed-in client per demo role; the dashboard talks to its embedded sandbox in its own process
 * (no proxy), as a demo does.
 */
export async function sharedDashboard(env: Record<string, string> = {}): Promise<SharedDashboard> {
  const { url, control } = await resetApp(env);
  const { reconnect: _, ...clients } = await connect({ url }, env);
  return { ...clients, url, control };
}

/** The clients of a dashboard at `target`: one signed in per role, and the sandbox direct. */
async function connect(target: Target, env: Record<string, string>) {
  const as = await signInAll(target);
  let direct = sandboxClient(target.url, target.fetch);
  // The direct client keeps its token; a new one when it expired (tests may shorten the lifetime),
  // one for all the calls that met the expiry together.
  const sandboxCall: ReturnType<typeof sandboxClient>["call"] = async (...args) => {
    const client = direct;
    const res = await client.call(...args);
    if (res.status !== 401) return res;
    if (direct === client) direct = sandboxClient(target.url, target.fetch);
    return direct.call(...args);
  };
  return {
    env,
    as,
    sandbox: { getToken: (scope?: string) => direct.getToken(scope), call: sandboxCall },
    /** After a restart on another port: a new direct client (the role clients follow `target`). */
    reconnect() {
      direct = sandboxClient(target.url, target.fetch);
    },
    async journal(refId: string) {
      const res = await as.admin.call("GET", `/api/activity?ref_ids=${encodeURIComponent(refId)}`);
      if (res.status !== 200) throw new Error(`GET /api/activity answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.items as JournalItem[];
    },
    async sandboxOrders(refId: string) {
      const res = await sandboxCall("GET", `/orders?ref_ids=${encodeURIComponent(refId)}`);
      if (res.status !== 200) throw new Error(`sandbox GET /orders answered ${res.status}`);
      return res.body.items as { id: string; ref_id: string; profile_id: string }[];
    },
    async sandboxTransfers(refId: string) {
      const res = await sandboxCall("GET", `/transfer/transfers?ref_ids=${encodeURIComponent(refId)}`);
      if (res.status !== 200) throw new Error(`sandbox GET /transfer/transfers answered ${res.status}`);
      return res.body.items as { id: string; direction: string; ref_id: string }[];
    },
  };
}

/** Asserts the RFC 9457 shape every dashboard error has: problem+json with type, title, status, detail. */
export function expectProblem(res: { status: number; headers: Headers; body: any }, status: number) {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { status } });
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.body).toEqual(
    expect.objectContaining({
      type: expect.any(String),
      title: expect.any(String),
      status,
      detail: expect.stringMatching(/\S/),
    }),
  );
  return res.body as { type: string; title: string; status: number; detail: string; meta?: any };
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text. */
  body: any;
}

/** One call with exactly these headers (no cookie, no Origin unless given), to a URL or a Target. */
export async function rawCall(
  base: string | Target,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const target = typeof base === "string" ? { url: base } : base;
  const res = await (target.fetch ?? fetch)(`${target.url}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...options.headers,
    },
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === "string" || options.body instanceof Uint8Array
          ? (options.body as BodyInit)
          : JSON.stringify(options.body),
    redirect: "manual",
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body };
}

/** A sample's value in GET /api/metrics's text (as an admin reads it), 0 when absent; labels match exactly. */
export async function metricValue(admin: Client, name: string, labels: Record<string, string> = {}): Promise<number> {
  const res = await admin.call("GET", "/api/metrics");
  if (res.status !== 200) throw new Error(`GET /api/metrics answered ${res.status}`);
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(",");
  const line = (res.body as string).split("\n").find((l) => l.startsWith(want ? `${name}{${want}} ` : `${name} `));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

/** Rests a bid and an ask of `size` on `market` straight at the sandbox, from the treasury: the market's book. */
export async function quote(d: Dashboard, market: string, bid: string, ask: string, size = "1") {
  for (const [side, price] of [
    ["BUY", bid],
    ["SELL", ask],
  ] as const) {
    const res = await d.sandbox.call("POST", `/profiles/${TREASURY}/orders`, {
      market,
      side,
      type: "LIMIT",
      price,
      base_amount: size,
      ref_id: newRef("book"),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  // Matched on the sandbox's next turn, as after any create (over HTTP, the socket gives it one).
  await sandboxTurn();
}

/**
 * One turn of the event loop: the sandbox matches what was submitted on the turn after the
 * create answered (lib/sandbox/runtime.ts, scheduleProcessing), which calls in process, made of
 * promises alone, never give it by themselves.
 */
export const sandboxTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The house (the sandbox's market maker's customer) rests a LIMIT order of `size` at `price`:
 * liquidity of another customer's, which the demo customer can trade with (it cannot with itself).
 */
export function houseOrder(
  sandbox: SandboxRuntime,
  side: "BUY" | "SELL",
  price: string,
  size: string,
  market = "BTCUSD",
) {
  sandbox.run((ex) => {
    ex.submitOrder(MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, {
      market: market as "BTCUSD",
      type: "LIMIT",
      side,
      price,
      base_amount: size,
    });
    ex.processSubmitted();
  });
}

/** Cancels the house's resting orders on `market`, so a test sets its own book. */
export function clearHouseOrders(sandbox: SandboxRuntime, market = "BTCUSD") {
  sandbox.run((ex) => {
    for (const o of [...ex.orders.values()]) {
      const resting = o.status === "OPEN" || o.status === "SUBMITTED";
      if (o.profileId === MARKET_MAKER_PROFILE_ID && o.market === market && resting) {
        ex.cancelOrder(MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, o.id);
      }
    }
    ex.processSubmitted();
  });
}
