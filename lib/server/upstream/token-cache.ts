import "server-only";
import * as oauth from "oauth4webapi";
import { networkFailure, TokenRequestError, UpstreamError } from "./errors";
import { timeLimit } from "./time-limit";

/**
 * OAuth 2 client-credentials tokens for the service, through oauth4webapi.
 * One cached token per scope set, refreshed shortly before it expires. Refreshes are
 * single-flight: the real token endpoint allows about one request per second, so
 * however many callers need a token at once, one request is made and all share it.
 */

export interface TokenCacheOptions {
  /** The full token endpoint URL; no discovery. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Credentials in the form body (the service's documented way, the default) or as HTTP Basic. */
  clientAuth?: "client_secret_post" | "client_secret_basic";
  /** Refresh when less than this much lifetime remains (default 60 s). */
  refreshBeforeMs?: number;
  /** Lifetime assumed when the endpoint sends no expires_in (default 5 min). */
  defaultLifetimeMs?: number;
  /** Time limit of one token request (default 10 s). */
  timeoutMs?: number;
  /** Plain http:// is allowed only to a loopback host (the embedded sandbox) unless this is set. */
  allowInsecureHttp?: boolean;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  fetch?: typeof fetch;
}

export interface TokenCache {
  /** A valid access token for these scopes: cached, or fetched (once, however many callers wait). */
  getToken(scopes: readonly string[]): Promise<string>;
  /** Drops a token the service refused, unless the cache already holds a newer one. */
  invalidate(scopeKey: string, token: string): void;
}

/** The cache key of a scope set: sorted, without duplicates, space-separated (as OAuth sends it). */
export function scopeKeyOf(scopes: readonly string[]): string {
  return [...new Set(scopes)].sort().join(" ");
}

interface CachedToken {
  value: string;
  /** When the token stops working. */
  expiresAt: number;
  /** When to fetch the next one. */
  refreshAt: number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function createTokenCache(options: TokenCacheOptions): TokenCache {
  const now = options.now ?? Date.now;
  const refreshBeforeMs = options.refreshBeforeMs ?? 60_000;
  const defaultLifetimeMs = options.defaultLifetimeMs ?? 300_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const tokenUrl = new URL(options.tokenUrl);
  const host = tokenUrl.host;
  const insecure = tokenUrl.protocol === "http:";
  if (insecure && !LOOPBACK.has(tokenUrl.hostname) && !options.allowInsecureHttp) {
    // The client secret would cross the network in clear.
    throw new TypeError(`The token endpoint at ${host} must use https:// (http:// is allowed only on loopback)`);
  }

  const as: oauth.AuthorizationServer = { issuer: tokenUrl.origin, token_endpoint: tokenUrl.href };
  const client: oauth.Client = { client_id: options.clientId };
  const clientAuth =
    options.clientAuth === "client_secret_basic"
      ? oauth.ClientSecretBasic(options.clientSecret)
      : oauth.ClientSecretPost(options.clientSecret);
  const requestOptions: oauth.ClientCredentialsGrantRequestOptions = {
    signal: () => timeLimit(timeoutMs, now),
    ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
    ...(options.fetch ? { [oauth.customFetch]: options.fetch } : {}),
  };

  const cache = new Map<string, CachedToken>();
  const inFlight = new Map<string, Promise<string>>();

  async function requestToken(key: string): Promise<CachedToken> {
    const startedAt = now();
    let response: oauth.TokenEndpointResponse;
    try {
      const res = await oauth.clientCredentialsGrantRequest(
        as,
        client,
        clientAuth,
        key ? { scope: key } : {},
        requestOptions,
      );
      response = await oauth.processClientCredentialsResponse(as, client, res);
    } catch (error) {
      throw tokenFailure(error, key);
    }
    const lifetimeMs = response.expires_in !== undefined ? response.expires_in * 1000 : defaultLifetimeMs;
    // A lifetime shorter than the margin would refresh on every call: then refresh at half-life instead.
    const margin = Math.min(refreshBeforeMs, lifetimeMs / 2);
    return {
      value: response.access_token,
      expiresAt: startedAt + lifetimeMs,
      refreshAt: startedAt + lifetimeMs - margin,
    };
  }

  /** The library's errors carry response bodies (tokens) and request details: keep only safe facts. */
  function tokenFailure(error: unknown, scopeKey: string): UpstreamError {
    const network = networkFailure(error, host, timeoutMs, "token");
    if (network) return network;
    if (error instanceof oauth.ResponseBodyError) {
      const description = error.error_description ? redact(error.error_description) : undefined;
      return new TokenRequestError(
        `The token endpoint at ${host} refused the request (${error.status} ${safeCode(error.error)})${description ? `: ${description}` : ""}`,
        error.status,
        safeCode(error.error),
        // What invalid_scope is about: the scopes asked for, and which of them the endpoint named.
        { scopes: scopeKey ? scopeKey.split(" ") : [], description },
      );
    }
    if (error instanceof oauth.WWWAuthenticateChallengeError) {
      const code = error.cause.map((c) => c.parameters.error).find((e) => e !== undefined);
      return new TokenRequestError(
        `The token endpoint at ${host} refused the client's credentials (${error.status}${code ? ` ${safeCode(code)}` : ""})`,
        error.status,
        code === undefined ? undefined : safeCode(code),
      );
    }
    // OperationProcessingError: not a token response. A non-OAuth error (a 429 problem when
    // requests come too fast, a 5xx page) carries the Response as its cause: keep its status only.
    const cause = (error as { cause?: unknown } | null)?.cause;
    if (cause instanceof Response && cause.status !== 200) {
      return new TokenRequestError(
        `The token endpoint at ${host} answered HTTP ${cause.status}`,
        cause.status,
        undefined,
      );
    }
    return new TokenRequestError(`The token endpoint at ${host} sent an unusable response`, undefined, undefined);
  }

  function redact(text: string): string {
    let safe = text.slice(0, 300);
    for (const secret of [options.clientSecret, encodeURIComponent(options.clientSecret)]) {
      if (secret) safe = safe.split(secret).join("[redacted]");
    }
    return safe;
  }

  return {
    getToken(scopes) {
      const key = scopeKeyOf(scopes);
      const cached = cache.get(key);
      if (cached && now() < cached.refreshAt) return Promise.resolve(cached.value);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = requestToken(key).then(
          (token) => {
            cache.set(key, token);
            return token.value;
          },
          (error: unknown) => {
            // A failed refresh while the old token still works is no reason to fail the caller.
            const current = cache.get(key);
            if (current && now() < current.expiresAt) return current.value;
            throw error;
          },
        );
        const settle = () => inFlight.delete(key);
        pending.then(settle, settle);
        inFlight.set(key, pending);
      }
      return pending;
    },

    invalidate(scopeKey, token) {
      if (cache.get(scopeKey)?.value === token) cache.delete(scopeKey);
    },
  };
}

/** OAuth error codes are short ASCII words; anything else is not repeated. */
function safeCode(code: string): string {
  return /^[\x20-\x7e]{1,64}$/.test(code) ? code : "error";
}
