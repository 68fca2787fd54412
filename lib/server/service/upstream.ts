import "server-only";
import { SCOPES } from "@/lib/spec/scopes";
import { env } from "../env";
import { createUpstreamClient, type UpstreamClient } from "../upstream/client";
import { createTokenCache } from "../upstream/token-cache";

const KEY = Symbol.for("treasury-dashboard.upstream");
const IN_PROCESS = Symbol.for("treasury-dashboard.in-process-service");
type Serve = (request: Request) => Promise<Response>;
type Holder = { [KEY]?: UpstreamClient; [IN_PROCESS]?: { baseUrl: string; serve: Serve } };

/**
 * The one client of the service per process, holding its credentials and token cache.
 * Nothing it holds ever leaves the server.
 */
export function upstream(): UpstreamClient {
  const holder = globalThis as Holder;
  const local = holder[IN_PROCESS];
  const fetch = local && local.baseUrl === env.service.baseUrl ? inProcessFetch(local.serve) : undefined;
  holder[KEY] ??= createUpstreamClient({
    baseUrl: env.service.baseUrl,
    timeoutMs: env.SERVICE_TIMEOUT_MS,
    fetch,
    tokens: createTokenCache({
      tokenUrl: env.service.authUrl,
      clientId: env.service.clientId,
      clientSecret: env.service.clientSecret,
      fetch,
    }),
  });
  return holder[KEY];
}

/**
 * Serves the service at `baseUrl` from this very process (the embedded sandbox, wired by
 * instrumentation.ts): its calls are handed the same Request objects and answer the same
 * Responses, without a socket and a second trip through Next's request pipeline, which
 * cost more than the sandbox itself. A service anywhere else is reached over HTTP.
 */
export function serveServiceInProcess(baseUrl: string, serve: Serve): void {
  (globalThis as Holder)[IN_PROCESS] = { baseUrl, serve };
}

/**
 * fetch's contract over `serve`, time limit included: an aborted signal rejects with its
 * reason, as fetch does. The signal is honoured here and not handed to the Request: a
 * Request following a signal costs more than the sandbox's own parsing of it, and the
 * service in this process never reads it.
 */
function inProcessFetch(serve: Serve): typeof fetch {
  return async (input, init) => {
    const { signal, ...rest } = init ?? {};
    const request = new Request(input, rest);
    if (!signal) return serve(request);
    signal.throwIfAborted();
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      serve(request)
        .then(resolve, reject)
        .finally(() => signal.removeEventListener("abort", onAbort));
    });
  };
}

/**
 * The dashboard asks for every scope it uses in one token: the token endpoint allows
 * about one request per second, and a token per operation would trip it as soon as a
 * page loads.
 */
const DASHBOARD_SCOPES = SCOPES;

/** Which scope each kind of call needs (all of them come with the one token). */
export const SCOPE = {
  writeOrder: DASHBOARD_SCOPES,
  readOrder: DASHBOARD_SCOPES,
  writeTransfer: DASHBOARD_SCOPES,
  readTransfer: DASHBOARD_SCOPES,
  readProfile: DASHBOARD_SCOPES,
  public: DASHBOARD_SCOPES,
} as const;
