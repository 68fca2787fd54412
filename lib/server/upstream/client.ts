import "server-only";
import { SCOPES } from "@/lib/spec";
import { hostOf, networkFailure, TokenRequestError } from "./errors";
import { abortableSleep, timeLimit, type UpstreamLimiter } from "./limiter";
import { scopeKeyOf, type TokenCache } from "./token-cache";

export {
  TokenRequestError,
  UpstreamError,
  UpstreamThrottled,
  UpstreamTimeout,
  UpstreamUnreachable,
  upstreamProblem,
} from "./errors";

/**
 * The one way the back end talks to the service: a bearer token from the cache on
 * every call, a time limit, and one retry when the service says the token is no good.
 * One token carries every scope the dashboard uses: the token endpoint allows about one
 * request per second, and a token per operation would trip it as soon as a page loads.
 * The token endpoint's 429 is waited out and retried within the time limit (the token was
 * never issued, so nothing else is affected). It never retries anything else: whether a create
 * may be sent again (with the same ref_id) is the route layer's decision.
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
   * Any HTTP status is returned but a 401 after a fresh token; a network failure, a timeout or
   * refused credentials throw (UpstreamUnreachable, UpstreamTimeout, TokenRequestError).
   */
  request(request: UpstreamRequest): Promise<UpstreamResponse>;
}

export interface UpstreamClientOptions {
  /** The service's API base including `/v2`. */
  baseUrl: string;
  tokens: TokenCache;
  /** The scopes of the one token (default: every scope the dashboard uses). */
  scopes?: readonly string[];
  fetch?: typeof fetch;
  /** The limit for the whole call, the token refresh retry included (default 15 s). */
  timeoutMs?: number;
  /** The rate budget `fetch` goes through: how long a token endpoint's 429 said to wait. */
  limiter?: Pick<UpstreamLimiter, "heldFor">;
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
      for (const [name, value] of Object.entries(request.query ?? {})) {
        if (value === undefined || value === null) continue;
        for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
      }
      const body = request.body === undefined ? undefined : JSON.stringify(request.body);
      const deadline = Date.now() + timeoutMs;
      const signal = timeLimit(timeoutMs);

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

      /** A token; a 429 from the token endpoint is waited out while the wait ends within the time limit. */
      const getToken = async (): Promise<string> => {
        for (;;) {
          try {
            return await options.tokens.getToken(scopes);
          } catch (error) {
            if (!(error instanceof TokenRequestError && error.status === 429)) throw error;
            const wait = Math.max(options.limiter?.heldFor("token") ?? 0, TOKEN_RETRY_MIN_MS);
            if (Date.now() + wait >= deadline) throw error;
            await abortableSleep(wait, signal);
          }
        }
      };

      try {
        let token = await getToken();
        let response = await send(token);
        if (isInvalidToken(response)) {
          // Revoked or expired early: drop it and try once with a fresh one. A second refusal is returned as is.
          await response.body?.cancel();
          options.tokens.invalidate(scopeKey, token);
          token = await getToken();
          response = await send(token);
          if (response.status === 401) {
            await response.body?.cancel();
            throw new TokenRequestError(`The service at ${host} refused a fresh access token`, 401, "invalid_token");
          }
        }
        return { status: response.status, body: await readBody(response), headers: response.headers };
      } catch (error) {
        // Token failures arrive typed (stage "token"); fetch's and the body's are typed here.
        throw networkFailure(error, host, timeoutMs, "request") ?? error;
      }
    },
  };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The shortest wait before asking the token endpoint again after its 429 (it allows about 1 a second). */
const TOKEN_RETRY_MIN_MS = 1000;

function isInvalidToken(response: Response): boolean {
  return response.status === 401 && /invalid_token/i.test(response.headers.get("www-authenticate") ?? "");
}

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
