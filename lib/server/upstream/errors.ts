import "server-only";
import { problem, type Problem } from "@/lib/spec";

/**
 * Typed failures of the upstream service and its token endpoint. Their messages and
 * fields name hosts, statuses and codes, never a client secret or an access token, so
 * they are safe in a log line (the route layer still writes its own problem for the user).
 */

/** Where it failed: getting a token, or the API call itself. */
export type UpstreamStage = "token" | "request";

export abstract class UpstreamError extends Error {
  abstract override readonly name: string;
  /** Each class's own name, kept through minification. */
  static readonly kind: string | undefined = undefined;
  /** The brand `instanceof` goes by. */
  readonly upstreamKind: string;

  /**
   * `instanceof` by brand, not by class identity: Next bundles this module once for
   * instrumentation.ts and once for the route handlers, and both share the one runtime's
   * client, so the routes can meet errors made by the other copy of these classes.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    const brand = typeof value === "object" && value !== null ? (value as UpstreamError).upstreamKind : undefined;
    if (typeof brand !== "string") return false;
    return this.kind === undefined || this.kind === brand;
  }

  constructor(
    message: string,
    readonly stage: UpstreamStage,
    /**
     * False only when the request certainly never reached the service (a refused
     * connection, an unknown host, or a failure while getting the token): a create
     * then did not happen. True means it may have: retry only with the same ref_id.
     */
    readonly maybeDelivered: boolean,
  ) {
    super(message);
    this.upstreamKind = (new.target as typeof UpstreamError).kind ?? "UpstreamError";
  }
}

/** The service (or its token endpoint) did not answer within the time limit. */
export class UpstreamTimeout extends UpstreamError {
  static override readonly kind = "UpstreamTimeout";
  override readonly name = "UpstreamTimeout";
  constructor(
    readonly host: string,
    readonly timeoutMs: number,
    stage: UpstreamStage,
  ) {
    super(
      `${stage === "token" ? "The service's token endpoint" : "The service"} at ${host} did not answer within ${timeoutMs} ms`,
      stage,
      stage === "request",
    );
  }
}

/** The network failed: connection refused or reset, unknown host, TLS failure. */
export class UpstreamUnreachable extends UpstreamError {
  static override readonly kind = "UpstreamUnreachable";
  override readonly name = "UpstreamUnreachable";
  constructor(
    readonly host: string,
    /** The system's code when known: ECONNREFUSED, ECONNRESET, ENOTFOUND, ... */
    readonly code: string | undefined,
    stage: UpstreamStage,
  ) {
    super(
      `${stage === "token" ? "The service's token endpoint" : "The service"} at ${host} could not be reached${code ? ` (${code})` : ""}`,
      stage,
      stage === "request" && !NOT_CONNECTED.has(code ?? ""),
    );
  }
}

/**
 * The service would not take the dashboard's credentials: its token endpoint refused them (bad
 * credentials, unknown scope, too many requests) or answered nonsense, or the API refused even a
 * fresh token. Nothing was sent.
 */
export class TokenRequestError extends UpstreamError {
  static override readonly kind = "TokenRequestError";
  override readonly name = "TokenRequestError";
  constructor(
    message: string,
    /** The token endpoint's HTTP status, when it answered. */
    readonly status: number | undefined,
    /** The OAuth error code ("invalid_client", "invalid_scope"), when it sent one. */
    readonly error: string | undefined,
  ) {
    super(message, "token", false);
  }
}

/** The classes of the service's rate limits (lib/server/upstream/limiter.ts). */
export type BudgetClass = "api" | "transfer" | "order-book" | "token";

/** A call was not sent: the budget would not free a slot within the call's time limit. */
export class UpstreamThrottled extends UpstreamError {
  static override readonly kind = "UpstreamThrottled";
  override readonly name = "UpstreamThrottled";
  constructor(readonly budgetClass: BudgetClass) {
    super(
      `The dashboard held back a call to the service (${budgetClass}): its rate budget has no slot within the time limit`,
      budgetClass === "token" ? "token" : "request",
      false,
    );
  }
}

/** Codes meaning the connection was never made, so nothing was sent. */
const NOT_CONNECTED = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** The host (and port) of a URL: what error messages name instead of the full URL. */
export function hostOf(url: string | URL): string {
  try {
    return new URL(url).host;
  } catch {
    return "an invalid address";
  }
}

/** Classifies an error thrown by fetch (or by reading its body); undefined if it is not a network failure. */
export function networkFailure(error: unknown, host: string, timeoutMs: number, stage: UpstreamStage) {
  if (error instanceof UpstreamError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "TimeoutError") return new UpstreamTimeout(host, timeoutMs, stage);
  // undici reports a network failure as TypeError("fetch failed"), or "terminated" while reading
  // the body, with the system error as cause. Other TypeErrors are bugs and stay as they are.
  if (error instanceof TypeError && (error.message === "fetch failed" || error.message === "terminated")) {
    const cause = (error as { cause?: { code?: unknown; cause?: { code?: unknown } } }).cause;
    const code = cause?.code ?? cause?.cause?.code;
    return new UpstreamUnreachable(host, typeof code === "string" ? code : undefined, stage);
  }
  return undefined;
}

/**
 * What a person reads when the service could not be used: one set of words for every route,
 * create and relay. A 502 or 503 rather than a 401, which the browser would take for the end of
 * its own session.
 */
export function upstreamProblem(error: UpstreamError): Problem {
  if (error instanceof UpstreamTimeout) {
    return problem(
      504,
      "Service Timeout",
      "The service did not answer in time. Nothing is lost: what was sent is journaled and will be reconciled.",
    );
  }
  if (error instanceof UpstreamUnreachable) {
    return problem(502, "Service Unreachable", "The service could not be reached. Try again in a moment.");
  }
  if (error instanceof UpstreamThrottled && error.stage === "request") {
    return problem(
      503,
      "Service Busy",
      "The dashboard keeps its calls to the service under the service's rate limits, and this one found no room in time. Try again in a few seconds.",
    );
  }
  if (error instanceof UpstreamThrottled || (error instanceof TokenRequestError && error.status === 429)) {
    return problem(
      503,
      "Service Busy",
      "The service is limiting how often the dashboard may sign in to it. Try again in a few seconds.",
    );
  }
  return problem(
    502,
    "Service Sign-in Failed",
    "The dashboard could not sign in to the service. Ask an administrator to check its credentials.",
  );
}
