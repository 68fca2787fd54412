import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MovableClock } from "../clock";
import { parseEnv, type Env } from "../env-schema";
import type { RequestWatch } from "../http/incoming";
import { normal } from "../http/peer-address";
import { log } from "./log";
import { startRuntime } from "./start";
import { closeRuntime, install, runtime, underTestControl, type Runtime } from "../runtime";

/**
 * The test harness's control of a running server's runtime, so that the suite shares one server
 * instead of starting one per setting: start the runtime afresh with given settings and an empty
 * database, move its clock, switch the sandbox's market maker.
 *
 * It exists only where the harness started the server with DASHBOARD_TEST_CONTROL (a secret);
 * never with SERVICE_BASE_URL (the configuration refuses the pair, env-schema.ts). It is not a
 * route of the app: instrumentation.ts serves it on the node server itself (http/incoming.ts),
 * so a server started without it answers its path as any unknown one. Only loopback callers
 * holding the secret are heard.
 *
 *   POST /__test__/runtime  {"op": "reset", "settings": {"SESSION_IDLE_MINUTES": "0.5", ...}}
 *   POST /__test__/runtime  {"op": "advance", "ms": 60000}
 *   POST /__test__/runtime  {"op": "market-maker", "on": false}
 */
export const TEST_CONTROL_PATH = "/__test__/runtime";

/**
 * Variables read once, when the process starts: a reset cannot change them (the port, the
 * public URL next-auth reads from the environment, the trusted proxies, the shutdown's grace)
 * and the control's own secret.
 */
export const START_ONLY = [
  "PORT",
  "NEXTAUTH_URL",
  "TRUSTED_PROXY_IPS",
  "SHUTDOWN_GRACE_SECONDS",
  "DASHBOARD_TEST_CONTROL",
] as const;

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost", "[::1]"]);

/** Installs the control on the server's requests (instrumentation.ts, with DASHBOARD_TEST_CONTROL set). */
export function serveTestControl(requests: RequestWatch, secret: string): void {
  requests.serve(TEST_CONTROL_PATH, (request, response) => {
    void answer(request, response, requests, secret).catch((error: unknown) => {
      log.error({ err: error }, "test control: failed");
      reply(response, 500, { title: "Internal Server Error", detail: String(error) });
    });
  });
}

async function answer(request: IncomingMessage, response: ServerResponse, requests: RequestWatch, secret: string) {
  if (!LOOPBACK.has(normal(request.socket.remoteAddress ?? ""))) {
    return reply(response, 403, { title: "Forbidden", detail: "The test control answers loopback callers only." });
  }
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? "";
  if (!sameSecret(bearer, secret)) {
    return reply(response, 403, { title: "Forbidden", detail: "The test control needs its secret as a bearer token." });
  }
  if (request.method === "GET") return reply(response, 200, await state());
  if (request.method !== "POST") return reply(response, 405, { title: "Method Not Allowed", detail: "GET or POST" });
  try {
    return reply(response, 200, await run(await commandOf(request), requests));
  } catch (error) {
    if (error instanceof ControlRefusal) return reply(response, 400, { title: "Bad Request", detail: error.message });
    throw error;
  }
}

class ControlRefusal extends Error {}

async function run(command: Record<string, unknown>, requests: RequestWatch): Promise<object> {
  switch (command.op) {
    case "reset":
      await resetRuntime(settingsOf(command.settings), requests);
      return state();
    case "advance": {
      const ms = Number(command.ms);
      if (!Number.isFinite(ms) || ms < 0) throw new ControlRefusal("ms must be a number of milliseconds, 0 or more");
      await advanceClock(await runtime(), ms);
      return state();
    }
    case "market-maker":
      (await runtime()).sandbox?.setMarketMaker(command.on === true);
      return state();
    default:
      throw new ControlRefusal('op must be "reset", "advance" or "market-maker"');
  }
}

async function state() {
  const rt = await runtime();
  return {
    now: new Date(rt.clock.now()).toISOString(),
    clock_offset_ms: (rt.clock as Partial<MovableClock>).offset ?? 0,
    data_dir: rt.config.DATA_DIR,
    database: rt.config.DATABASE_URL ? "postgres" : "sqlite",
  };
}

function settingsOf(value: unknown): Record<string, string> {
  const settings = (value ?? {}) as Record<string, unknown>;
  if (typeof settings !== "object" || Array.isArray(settings)) throw new ControlRefusal("settings must be an object");
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(settings)) {
    if ((START_ONLY as readonly string[]).includes(name)) {
      throw new ControlRefusal(`${name} is read when the process starts: a reset cannot change it`);
    }
    if (typeof v !== "string") throw new ControlRefusal(`settings.${name} must be a string, as a variable is`);
    out[name] = v;
  }
  return out;
}

/** The directory the last reset made (not one the settings named), removed by the next. */
let resetDir: string | undefined;
/** One reset at a time. */
let resetting: Promise<unknown> = Promise.resolve();

/**
 * Closes the runtime (its streams end, its background work stops, its databases close) and
 * builds a new one from the start's environment with `settings` over it, with a clock the
 * control can move: on an empty DATA_DIR of its own, or on the data of the DATA_DIR the settings
 * name (as a restart on that data would; a restored backup, say), and on whatever DATABASE_URL
 * they name (the test's fresh database). Requests arriving meanwhile wait for the new one.
 */
export function resetRuntime(settings: Record<string, string>, requests: RequestWatch): Promise<Runtime> {
  const next = resetting.then(async () => {
    const own = settings.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), "dashboard-reset-"));
    let config: Env;
    try {
      config = configOf(settings, settings.DATA_DIR ?? own!);
    } catch (error) {
      if (own) rmSync(own, { recursive: true, force: true });
      throw error;
    }
    await closeRuntime();
    // The last reset's own directory goes, unless this one starts on its data.
    if (resetDir && resetDir !== settings.DATA_DIR) rmSync(resetDir, { recursive: true, force: true });
    resetDir = own ?? (settings.DATA_DIR === resetDir ? resetDir : undefined);
    log.level = config.LOG_LEVEL;
    // A runtime that cannot be built (its database unreachable) is tried again by each request,
    // as at a start: readiness says why meanwhile.
    install(config, underTestControl()).catch(() => undefined);
    return startRuntime(requests);
  });
  resetting = next.catch(() => undefined);
  return next;
}

function configOf(settings: Record<string, string>, dataDir: string): Env {
  const { DASHBOARD_TEST_CONTROL: _, ...start } = process.env;
  let config: Env;
  try {
    config = parseEnv({ ...start, ...settings, DATA_DIR: dataDir });
  } catch (error) {
    throw new ControlRefusal(error instanceof Error ? error.message : String(error));
  }
  // "A real service" here is only ever this machine: the fault proxy in front of the sandbox.
  for (const name of ["SERVICE_BASE_URL", "SERVICE_AUTH_URL"] as const) {
    const url = config[name];
    if (url && !LOOPBACK.has(new URL(url).hostname)) {
      throw new ControlRefusal(`${name} must name a loopback host under the test control`);
    }
  }
  return config;
}

/** Moves the runtime's clock forward; the sandbox then does at once what fell due (GTT expiry, settling). */
export async function advanceClock(rt: Runtime, ms: number): Promise<void> {
  const clock = rt.clock as Partial<MovableClock>;
  if (!clock.advance) throw new ControlRefusal("this runtime's clock cannot be moved");
  clock.advance(ms);
  rt.sandbox?.run((exchange) => exchange.advance());
}

function reply(response: ServerResponse, status: number, body: object): void {
  if (response.headersSent) return;
  const text = JSON.stringify(status >= 400 ? { type: "about:blank", status, ...body } : body);
  response.writeHead(status, {
    "Content-Type": status >= 400 ? "application/problem+json" : "application/json",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  response.end(text);
}

async function commandOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new ControlRefusal("the command is larger than 64 KiB");
    chunks.push(chunk as Buffer);
  }
  try {
    const command: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    if (command && typeof command === "object" && !Array.isArray(command)) return command as Record<string, unknown>;
  } catch {
    // said below
  }
  throw new ControlRefusal('the command must be a JSON object such as {"op": "advance", "ms": 1000}');
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
