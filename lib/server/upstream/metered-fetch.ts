import "server-only";
import { operationOf, templateOf } from "@/lib/spec";
import type { Metrics } from "../ops/metrics";
import { UpstreamLocked, type BudgetClass } from "./errors";
import type { UpstreamLimiter } from "./limiter";
import { deadlineOf } from "./time-limit";

/**
 * The one door to the service: every fetch the upstream client and its token cache make waits
 * for its slot in the budget, and is counted and timed. A 429 is never handed on: it locks every
 * call out (the service now refuses the dashboard for minutes) and is thrown as UpstreamLocked,
 * which the person reads as a 503 saying when to try again.
 */

export interface MeteredFetchOptions {
  fetch: typeof fetch;
  limiter: UpstreamLimiter;
  /** Where each call is counted and timed. */
  metrics: Metrics;
  /** The service's API base including `/v2`. */
  baseUrl: string;
  /** The token endpoint's full URL. */
  tokenUrl: string;
  /** The wait allowed when a call carries no time limit of its own (timeLimit). */
  defaultTimeoutMs?: number;
  /** The limiter's clock (default: the machine's). */
  now?: () => number;
  /** Told of each call and its time in ms, once it is answered (the runtime counts it on the request's log line). */
  onCall?: (ms: number) => void;
}

export const TOKEN_ROUTE = "/oauth2/token";

export function meteredFetch(options: MeteredFetchOptions): typeof fetch {
  const base = new URL(options.baseUrl.replace(/\/+$/, ""));
  const tokenUrl = new URL(options.tokenUrl).href;
  const m = options.metrics;

  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const isToken = url.href.split("?")[0] === tokenUrl;
    const path = url.pathname.startsWith(base.pathname) ? url.pathname.slice(base.pathname.length) : url.pathname;
    const route = isToken ? TOKEN_ROUTE : routeOf(path);
    const budgetClass: BudgetClass = isToken ? "token" : classOf(method, route);

    const deadline = deadlineOf(init?.signal) ?? (options.now ?? Date.now)() + (options.defaultTimeoutMs ?? 15_000);
    const waitStart = performance.now();
    let release: () => void;
    try {
      release = await options.limiter.acquire(budgetClass, deadline, init?.signal ?? undefined);
    } catch (error) {
      m.upstreamHeldBack.inc({ class: budgetClass });
      throw error;
    }
    m.budgetWait.observe({ class: budgetClass }, (performance.now() - waitStart) / 1000);

    const started = performance.now();
    let status = 0;
    try {
      const response = await options.fetch(input, init);
      status = response.status;
      if (status === 429) {
        m.upstreamThrottled.inc({ class: budgetClass });
        const until = await options.limiter.lockOut(response.headers.get("retry-after"));
        await response.body?.cancel();
        throw new UpstreamLocked(until, isToken ? "token" : "request");
      }
      return response;
    } finally {
      release();
      const ms = performance.now() - started;
      m.upstreamRequests.inc({ route, status: String(status) });
      m.upstreamDuration.observe({ route }, ms / 1000);
      // A read shared by several requests counts for the one that sent it.
      options.onCall?.(ms);
      if (isToken) m.tokenRequests.inc({ status: String(status) });
    }
  };
}

/** A path below the API base as its operation's template (a bounded set of labels); "other" for anything else. */
export const routeOf = (path: string): string => templateOf(path) ?? "other";

/** Which of the budget's classes a call to a path (or its template) counts against: its operation's rate class. */
export function classOf(method: string, route: string): BudgetClass {
  const operation = operationOf(method, route);
  // Order creates and cancels keep the dashboard's own share of the api limit (CREATE_SHARE), apart from reads.
  if (operation?.id === "createOrder" || operation?.id === "cancelOrder") return "create";
  return operation?.rateClass ?? "api";
}
