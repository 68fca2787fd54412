import "server-only";

/**
 * Typed failures of the upstream service and its token endpoint. Their messages and
 * fields name hosts, statuses and codes, never a client secret or an access token, so
 * they are safe in a log line (the route layer still writes its own problem for the user).
 */

/** Where it failed: getting a token, or the API call itself. */
export type UpstreamStage = "token" | "request";

const BRAND = Symbol.for("treasury-dashboard.upstream-error");

export abstract class UpstreamError extends Error {
  abstract override readonly name: string;
  /** Each class's own name, kept through minification. */
  static readonly kind: string | undefined = undefined;
  readonly [BRAND]: string;

  /**
   * `instanceof` by brand, not by class identity: Next bundles this module once for
   * instrumentation.ts and once for the route handlers, and both share one client (on
   * globalThis). After a restart, reconciliation creates that client, so the routes meet
   * errors made by the other copy of these classes.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    const brand = typeof value === "object" && value !== null ? (value as { [BRAND]?: unknown })[BRAND] : undefined;
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
    this[BRAND] = (new.target as typeof UpstreamError).kind ?? "UpstreamError";
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

/** The token endpoint refused the client (bad credentials, unknown scope) or answered nonsense. */
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
