import "server-only";
import { SCOPES, scopeOf } from "@/lib/spec";
import { hostOf, networkFailure, UpstreamCredentialsRefused, UpstreamScopeMissing } from "./errors";
import { timeLimit } from "./time-limit";
import { scopeKeyOf, type TokenCache } from "./token-cache";

export {
  retryAfterHeaders,
  TokenRequestError,
  UpstreamCredentialsRefused,
  UpstreamError,
  UpstreamLocked,
  UpstreamScopeMissing,
  UpstreamThrottled,
  UpstreamTimeout,
  UpstreamUnreachable,
  upstreamProblem,
} from "./errors";

/**
 * The one way the back end talks to the service: a bearer token from the cache on every call,
 * and a time limit. One token carries every scope the dashboard is configured with
 * (SERVICE_SCOPES): the token endpoint allows about one request per second, and a token per
 * operation would trip it as soon as a page loads. A call whose scope is not among them is
 * refused here, unsent.
 *
 * A 401 drops the token, whatever the service says about it (it sends no challenge): a read is
 * sent once more with a new token, a create or cancel never (whether it may be sent again, with
 * the same ref_id, is the route layer's decision). Nothing else is retried here, and a 429 never
 * arrives here: the metered fetch locks every call out and throws (metered-fetch.ts).
 */

/** Above await_fill_millis's 10 s maximum, so a create that waits for its fill is not cut short. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 15_000;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export interface UpstreamRequest {
  method: HttpMethod;
  /** Below the base URL, e.g. `/profiles/{id}/orders`; segments already validated and encoded. */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Undefined and null values are left out; arrays repeat the parameter. */
  query?: Record<string, QueryValue>;
  /**
   * An answer that arrived before this call will not do (a create valued against the desk's
   * controls needs the price now, not the one screens share): see single-flight.ts.
   */
  fresh?: true;
}

export interface UpstreamResponse {
  status: number;
  /** Parsed JSON when the service sent JSON, the text otherwise, null when empty. */
  body: unknown;
  headers: Headers;
}

export interface UpstreamClient {
  /**
   * Any HTTP status is returned but a 401 (thrown as UpstreamCredentialsRefused); a missing
   * scope, a network failure, a timeout, a lockout or a refused token request throw
   * (UpstreamScopeMissing, UpstreamUnreachable, UpstreamTimeout, UpstreamLocked, TokenRequestError).
   */
  request(request: UpstreamRequest): Promise<UpstreamResponse>;
}

export interface UpstreamClientOptions {
  /** The service's API base including `/v2`. */
  baseUrl: string;
  tokens: TokenCache;
  /** The scopes of the one token, exactly (SERVICE_SCOPES; default: every scope the dashboard uses). */
  scopes?: readonly string[];
  fetch?: typeof fetch;
  /** The limit for the whole call, the token refresh retry included (default 15 s). */
  timeoutMs?: number;
  /** The clock the limiter reads the call's time limit on (default: the machine's). */
  now?: () => number;
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const host = hostOf(base);
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  // On loopback (the embedded sandbox) compressing each answer only to inflate it again costs CPU for nothing.
  const loopback = LOOPBACK.has(new URL(base).hostname);
  const doFetch = options.fetch ?? fetch;
  const scopes = options.scopes ?? SCOPES;
  const scopeKey = scopeKeyOf(scopes);

  return {
    async request(request) {
      const url = new URL(base + checkedPath(request.path));
      const needed = scopeOf(request.method, request.path);
      if (needed && !scopes.includes(needed)) throw new UpstreamScopeMissing(needed);
      for (const [name, value] of Object.entries(request.query ?? {})) {
        if (value === undefined || value === null) continue;
        for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
      }
      const body = request.body === undefined ? undefined : JSON.stringify(request.body);
      const signal = timeLimit(timeoutMs, options.now);

      const send = async (token: string) =>
        doFetch(url, {
          method: request.method,
          headers: {
            accept: "application/json",
            ...(loopback ? { "accept-encoding": "identity" } : {}),
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          body,
          signal,
          redirect: "manual",
        });

      /** A token and the call sent with it; a 401 drops that token from the cache. */
      const sendWithToken = async () => {
        const token = await options.tokens.getToken(scopes);
        const response = await send(token);
        if (response.status === 401) {
          await response.body?.cancel();
          options.tokens.invalidate(scopeKey, token);
        }
        return response;
      };

      try {
        let response = await sendWithToken();
        // Revoked or expired early (no challenge says which): a read goes once more with a new
        // token; a create or a cancel never does.
        if (response.status === 401 && request.method === "GET") response = await sendWithToken();
        if (response.status === 401) throw new UpstreamCredentialsRefused(host);
        return { status: response.status, body: await readBody(response), headers: response.headers };
      } catch (error) {
        // Token failures arrive typed (stage "token"); fetch's and the body's are typed here.
        throw networkFailure(error, host, timeoutMs, "request") ?? error;
      }
    },
  };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  if (!/\bjson\b/i.test(response.headers.get("content-type") ?? "")) return text;
  try {
    // Amounts are strings in the service's JSON, so parsing keeps them exact.
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The route layer validates path parameters; this is the last guard that a path cannot
 * climb out of the base URL (`..`, `%2e%2e`, an encoded slash) or smuggle a query.
 */
function checkedPath(path: string): string {
  if (!path.startsWith("/") || /[?#\\]/.test(path))
    throw new TypeError("Upstream path must start with / and hold no ? # \\");
  for (const segment of path.slice(1).split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new TypeError("Upstream path has a malformed escape");
    }
    if (segment === "" || decoded === "." || decoded === ".." || decoded.includes("/")) {
      throw new TypeError("Upstream path has an empty, dot or slash segment");
    }
  }
  return path;
}
