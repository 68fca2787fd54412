import "server-only";
import { pendingMigrations } from "../db";
import { scrub } from "./log";
import type { Runtime } from "../runtime";

/**
 * GET /api/ready: whether this instance should be sent traffic. Ready when it is not stopping,
 * its database answers with every migration of this build run, and the service will take its
 * calls (a token is held or can be obtained now, and no lockout after a 429 is in force).
 * Each check that fails is named with its reason; a reason never carries a secret.
 */

export type Checks = Partial<Record<"shutdown" | "database" | "migrations" | "service" | "lockout", string>>;

export interface Readiness {
  ready: boolean;
  /** The failing checks only. */
  checks: Checks;
}

/** A check waits this long for an answer, so a probe (often with a 1 s to 5 s timeout) gets one. */
export const CHECK_TIMEOUT_MS = 2_000;

export async function readinessOf(
  getRuntime: () => Promise<Runtime>,
  now: () => number = Date.now,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<Readiness> {
  const checks: Checks = {};
  let rt: Runtime;
  try {
    rt = await within(getRuntime(), timeoutMs);
  } catch (error) {
    // Not built (yet): the database is unreachable, its migrations failed, or it is still opening.
    return { ready: false, checks: { database: `not open: ${reason(error)}` } };
  }
  if (rt.lifecycle.stopping) checks.shutdown = "this instance is shutting down";
  const [database, service] = await Promise.all([databaseChecks(rt, timeoutMs), serviceChecks(rt, now, timeoutMs)]);
  Object.assign(checks, database, service);
  return { ready: Object.keys(checks).length === 0, checks };
}

async function databaseChecks(rt: Runtime, timeoutMs: number): Promise<Checks> {
  let pending: string[];
  try {
    pending = await within(pendingMigrations(rt.db as never), timeoutMs);
  } catch (error) {
    return { database: `does not answer: ${reason(error)}` };
  }
  return pending.length ? { migrations: `not run yet: ${pending.join(", ")}` } : {};
}

async function serviceChecks(rt: Runtime, now: () => number, timeoutMs: number): Promise<Checks> {
  const lockedFor = (await within(rt.service.lockedUntil(), timeoutMs).catch(() => 0)) - now();
  if (lockedFor > 0) {
    return {
      lockout: `the service refused the dashboard (HTTP 429): calls resume in ${Math.ceil(lockedFor / 1000)} s`,
    };
  }
  try {
    await within(rt.service.token(), timeoutMs);
    return {};
  } catch (error) {
    return { service: `no token: ${reason(error)}` };
  }
}

/** `work`, or a rejection once `ms` pass. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** An error's message (or its code), shortened, with any configured secret cut out. */
function reason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error && error.message ? error.message : typeof code === "string" ? code : "failed";
  return scrub(message).slice(0, 300);
}
