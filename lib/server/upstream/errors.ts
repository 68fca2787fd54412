import "server-only";
import { isProblem, lackedScopeDetail, problem, type Problem, type RateClass, type Scope } from "@/lib/spec";

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
    /** The scopes the token was asked for, and the endpoint's error_description (secret redacted). */
    readonly asked: { scopes?: readonly string[]; description?: string } = {},
  ) {
    super(message, "token", false);
  }
}

/**
 * The service refused the dashboard's access token (a 401), and a fresh one too for a read.
 * Nothing was done: the stage is "token" because the credentials failed, not the call, so a
 * create is never sent again over it (the journal and reconciliation decide what became of it).
 */
export class UpstreamCredentialsRefused extends UpstreamError {
  static override readonly kind = "UpstreamCredentialsRefused";
  override readonly name = "UpstreamCredentialsRefused";
  constructor(readonly host: string) {
    super(`The service at ${host} refused the dashboard's credentials (401)`, "token", false);
  }
}

/** The call needs a scope the dashboard's credentials lack (SERVICE_SCOPES): it was not sent. */
export class UpstreamScopeMissing extends UpstreamError {
  static override readonly kind = "UpstreamScopeMissing";
  override readonly name = "UpstreamScopeMissing";
  constructor(readonly scope: Scope) {
    super(lackedScopeDetail(scope), "request", false);
  }
}

/**
 * The service answered 429, and refuses the dashboard for a while after one: until `until`
 * (ms since the epoch) the dashboard sends it nothing, and this call was not sent (or was refused).
 */
export class UpstreamLocked extends UpstreamError {
  static override readonly kind = "UpstreamLocked";
  override readonly name = "UpstreamLocked";
  constructor(
    readonly until: number,
    stage: UpstreamStage,
  ) {
    super(
      `The service refused the dashboard for going over a rate limit: nothing is sent to it until ${new Date(until).toISOString()}`,
      stage,
      false,
    );
  }
}

/**
 * The classes of the dashboard's rate budget (limiter.ts): the service's rate classes and its
 * token endpoint, with creates and cancels of orders kept apart from the API's reads.
 */
export type BudgetClass = RateClass | "create" | "token";

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
  if (error instanceof UpstreamLocked) return lockedProblem(error.until);
  if (error instanceof UpstreamScopeMissing) {
    return problem(
      403,
      "Scope Missing",
      `${lackedScopeDetail(error.scope)}: this feature is off. Ask an administrator to have the scope granted and added to SERVICE_SCOPES.`,
      { missing_scope: error.scope },
    );
  }
  if (error instanceof UpstreamCredentialsRefused) {
    return problem(
      502,
      "Service Refused Credentials",
      "The service refused the dashboard's credentials. Ask an administrator to check SERVICE_CLIENT_ID and SERVICE_CLIENT_SECRET.",
    );
  }
  if (error instanceof TokenRequestError && error.error === "invalid_scope") {
    const scopes = refusedScopes(error);
    return problem(
      502,
      "Service Refused Scopes",
      `The service's token endpoint refused the scope${scopes.length === 1 ? "" : "s"} ${scopes.join(" ")} (invalid_scope): its credentials are not granted ${scopes.length === 1 ? "it" : "them"}. Ask an administrator to set SERVICE_SCOPES to the scopes they are granted.`,
      { error: "invalid_scope", scopes },
    );
  }
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

/** The scopes an invalid_scope names among those asked for; all of them when it names none. */
function refusedScopes(error: TokenRequestError): string[] {
  const asked = [...(error.asked.scopes ?? [])];
  const words = new Set((error.asked.description ?? "").split(/[\s,;'"()]+/));
  const named = asked.filter((scope) => words.has(scope));
  return named.length > 0 ? named : asked;
}

/** The 503 of a lockout: when it ends, in words and in `meta.locked_until` (which Retry-After is made from). */
export function lockedProblem(until: number, now = Date.now()): Problem {
  const at = new Date(until).toISOString();
  const seconds = secondsUntil(until, now);
  return problem(
    503,
    "Service Locked Out",
    `The service refused the dashboard for going over its rate limit. The dashboard sends it nothing until ${at} (in ${seconds} s): try again then.`,
    { locked_until: at, retry_after_seconds: seconds },
  );
}

const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));

/**
 * The Retry-After header for an answer whose body is a lockout's problem (meta.locked_until),
 * counted from now: the same problem relayed later says what is left. None for anything else.
 */
export function retryAfterHeaders(body: unknown, now = Date.now()): Record<string, string> {
  if (!isProblem(body) || body.status !== 503) return {};
  const until = Date.parse(String(body.meta?.locked_until ?? ""));
  return Number.isNaN(until) ? {} : { "Retry-After": String(secondsUntil(until, now)) };
}
