import "server-only";
import { sandboxConfigFromEnv } from "@/lib/sandbox/config";
import { serveSandbox } from "@/lib/sandbox/http/serve";
import { SandboxRuntime } from "@/lib/sandbox/runtime";
import { PASSWORD_COST, TEST_PASSWORD_COST, type PasswordCost } from "./auth/password";
import { auditCheckpointFile, createAuditTrail, type AuditTrail } from "./audit-trail";
import { movableClock, systemClock, type Clock } from "./clock";
import { createDb, dbConfigFromEnv, type Db } from "./db";
import { createSessionStore, type SessionStore } from "./auth/sessions";
import { env } from "./env";
import { noteUpstreamCall } from "./http/request-context";
import type { Env } from "./env-schema";
import { memoryBus } from "./live/bus";
import { createLifecycle, type Lifecycle } from "./ops/lifecycle";
import { createLive, type Live } from "./live/hub";
import { pgBus } from "./live/pg-bus";
import { createMetrics, type Metrics } from "./ops/metrics";
import { createUpstreamClient, type UpstreamClient } from "./upstream/client";
import { log } from "./ops/log";
import { keptSecret } from "./secrets";
import { inProcessFetch } from "./upstream/in-process";
import { listedMarketsOnly } from "./upstream/listed-markets";
import { budgetRatesFromEnv, penaltyMsFromEnv } from "./upstream/budget-rates";
import { memoryBudgetStore } from "./upstream/budget-store";
import { createUpstreamLimiter } from "./upstream/limiter";
import { meteredFetch } from "./upstream/metered-fetch";
import { postgresBudgetStore } from "./upstream/postgres-budget";
import { marketDataKeep, singleFlight } from "./upstream/single-flight";
import { createTokenCache } from "./upstream/token-cache";

/**
 * Everything the server holds for the life of the process, made in one place and passed to
 * whatever needs it: route handlers get it from `withRole`, start-up work from `runtime()`.
 */
export interface Runtime {
  /** The configuration it was built from: the environment's, or a test's (ops/test-control.ts). */
  config: Env;
  /** Its time: the machine's, or one a test moves (ops/test-control.ts). */
  clock: Clock;
  /** The journal database (SQLite, or PostgreSQL with DATABASE_URL), migrated. */
  db: Db;
  /** The one client of the service, with its token cache. */
  upstream: UpstreamClient;
  /** The embedded sandbox when SANDBOX=on, quoting and settling; else null. */
  sandbox: SandboxRuntime | null;
  /** The audit trail, in the same database, chained with AUDIT_SECRET (or a key kept in DATA_DIR). */
  audit: AuditTrail;
  /** Signed-in sessions, one row each, in the same database. */
  sessions: SessionStore;
  /** What session cookies are signed with: NEXTAUTH_SECRET, or a secret kept in DATA_DIR/auth-secret. */
  authSecret: string;
  /** Live updates (GET /api/events): streams, the watcher, the bus between instances; started on first use. */
  live: Live;
  /** The Prometheus metrics GET /api/metrics serves. */
  metrics: Metrics;
  /** Whether the process is stopping, and the work in flight a shutdown waits for. */
  lifecycle: Lifecycle;
  /** What readiness asks of the service: a token (held, or obtained now) and any lockout in force. */
  service: ServiceAccess;
  /** What the demo users' password is hashed and checked at: PASSWORD_COST, unless a test made the runtime. */
  passwordCost: PasswordCost;
}

export interface ServiceAccess {
  /** Resolves once the dashboard holds a token for its scopes (the cached one, or a new one). */
  token(): Promise<unknown>;
  /** Until when (epoch ms) the service refuses the dashboard after a 429; 0 or past: no lockout. */
  lockedUntil(): Promise<number>;
}

export interface RuntimeOptions {
  /** Default: the machine's clock. */
  clock?: Clock;
  /** What the calls to the service go through before the budget's door; a test's faults (default: as they are). */
  serviceFetch?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch;
  /**
   * Default: PASSWORD_COST. Only the tests' runtimes pass TEST_PASSWORD_COST: those made in
   * process, and those under the test harness's control (underTestControl). Never read from the
   * environment.
   */
  passwordCost?: PasswordCost;
}

/**
 * A runtime under the test harness's control (DASHBOARD_TEST_CONTROL, ops/test-control.ts):
 * a clock the tests can move, and the in-process tests' password cost, since the suite signs in
 * hundreds of times a run (41 ms of CPU each at the full cost, 2.4 ms at this one). A server
 * started without the control always hashes at PASSWORD_COST.
 */
export const underTestControl = (): RuntimeOptions => ({ clock: movableClock(), passwordCost: TEST_PASSWORD_COST });

/** Builds the runtime from the validated configuration. The database first: if it fails, nothing else has started. */
export async function createRuntime(
  config: Env,
  { clock = systemClock, serviceFetch = (f) => f, passwordCost = PASSWORD_COST }: RuntimeOptions = {},
): Promise<Runtime> {
  const db = await createDb(dbConfigFromEnv(config));
  const sandbox =
    config.SANDBOX === "on"
      ? new SandboxRuntime(
          { ...sandboxConfigFromEnv(config), onError: (what, err) => log.error({ err }, what) },
          clock.now,
        ).start()
      : null;
  // The dashboard's own calls to its embedded sandbox stay in this process.
  const direct = serviceFetch(
    sandbox && config.service.isSandbox ? inProcessFetch((r) => serveSandbox(r, sandbox)) : globalThis.fetch,
  );
  // One budget for every call to the service; on PostgreSQL shared by every instance.
  const store = config.DATABASE_URL ? await postgresBudgetStore(db) : memoryBudgetStore(clock.now);
  const limiter = createUpstreamLimiter({
    rates: budgetRatesFromEnv(config),
    penaltyMs: penaltyMsFromEnv(config),
    store,
    now: clock.now,
  });
  const metrics = createMetrics();
  metrics.watchLockout(() => limiter.lockedUntil());
  const fetch = meteredFetch({
    fetch: direct,
    limiter,
    metrics,
    baseUrl: config.service.baseUrl,
    tokenUrl: config.service.authUrl,
    defaultTimeoutMs: config.SERVICE_TIMEOUT_MS,
    now: clock.now,
    onCall: noteUpstreamCall,
  });
  const tokens = createTokenCache({
    tokenUrl: config.service.authUrl,
    clientId: config.service.clientId,
    clientSecret: config.service.clientSecret,
    fetch,
    now: clock.now,
  });
  // One token for the configured scopes: readiness asks for the very token the client uses.
  const scopes = config.SERVICE_SCOPES;
  const upstream = createUpstreamClient({
    baseUrl: config.service.baseUrl,
    timeoutMs: config.SERVICE_TIMEOUT_MS,
    fetch,
    tokens,
    scopes,
    now: clock.now,
  });
  const audit = createAuditTrail(db, keptSecret(config.DATA_DIR, "audit-key", config.AUDIT_SECRET), {
    checkpointFile: auditCheckpointFile(config.DATA_DIR),
    now: () => new Date(clock.now()),
    reportFailures: true,
  });
  // One bus between the instances (LISTEN/NOTIFY on PostgreSQL): live events, and session ends,
  // which every instance refuses at once and closes the streams of.
  const bus = config.DATABASE_URL ? pgBus(config.DATABASE_URL) : memoryBus();
  const sessions = createSessionStore(db, {
    idleMinutes: config.SESSION_IDLE_MINUTES,
    clock,
    announce: (session) => void bus.publish({ kind: "session-ended", session }).catch(() => undefined),
  });
  bus.subscribe((message) => message.kind === "session-ended" && sessions.ended(message.session));
  // Identical reads in the same moment (many screens, the watcher) share one call to the service,
  // and market data for a moment longer: every screen polls its book. Market data of a market the
  // service does not list (the spec's GOLDUSD) is not asked for.
  const reads = listedMarketsOnly(singleFlight(upstream, { keepMs: marketDataKeep }));
  const live = createLive({ upstream: reads, databaseUrl: config.DATABASE_URL, bus, clock });
  const service = { token: () => tokens.getToken(scopes), lockedUntil: () => limiter.lockedUntil() };
  const lifecycle = createLifecycle();
  const authSecret = keptSecret(config.DATA_DIR, "auth-secret", config.NEXTAUTH_SECRET);
  return {
    config,
    clock,
    db,
    upstream: reads,
    sandbox,
    audit,
    sessions,
    authSecret,
    live,
    metrics,
    lifecycle,
    service,
    passwordCost,
  };
}

/**
 * The process's one runtime, built on first use (instrumentation.ts asks at start) from the
 * configuration in force: the environment's, or the one a test's reset installed. It is kept on
 * globalThis because Next loads this module more than once (for instrumentation.ts and for the
 * routes, and again on each dev reload), and all of them must share one database pool, one token
 * cache and one sandbox. This is the only process-wide slot the server has. A failed build
 * (database down) is tried again by the next caller, with the same configuration.
 */
export function runtime(): Promise<Runtime> {
  const slot = holder();
  slot[SLOT] ??= { config: env, options: env.DASHBOARD_TEST_CONTROL ? underTestControl() : { clock: systemClock } };
  const current = slot[SLOT];
  if (!current.building) {
    const building = createRuntime(current.config, current.options);
    current.building = building;
    building.catch(() => {
      if (current.building === building) delete current.building;
    });
  }
  return current.building;
}

/**
 * Makes `config` the configuration in force, in place of any other (ops/test-control.ts's
 * reset, once it closed the runtime before), and builds its runtime.
 */
export function install(config: Env, options: RuntimeOptions = {}): Promise<Runtime> {
  holder()[SLOT] = { config, options };
  return runtime();
}

/** The process's runtime if one was built or is being built; never starts one. */
export function builtRuntime(): Promise<Runtime> | undefined {
  return holder()[SLOT]?.building;
}

/**
 * Closes the process's runtime, if one was built: its background work and streams stop (its
 * lifecycle ends), then the live hub, the sandbox and the database close. The next `runtime()`
 * builds one from the environment's configuration again.
 */
export async function closeRuntime(): Promise<void> {
  const building = holder()[SLOT]?.building;
  delete holder()[SLOT];
  const rt = await building?.catch(() => undefined);
  if (!rt) return;
  rt.lifecycle.begin("closed");
  await rt.live.stop();
  rt.sandbox?.stop();
  await rt.db.destroy();
}

const SLOT = Symbol.for("treasury-dashboard.runtime");
const holder = () => globalThis as { [SLOT]?: { config: Env; options: RuntimeOptions; building?: Promise<Runtime> } };
