import "server-only";
import { env } from "../env";
import { createUpstreamClient, type UpstreamClient } from "../upstream/client";
import { createTokenCache } from "../upstream/token-cache";

const KEY = Symbol.for("treasury-dashboard.upstream");
type Holder = { [KEY]?: UpstreamClient };

/**
 * The one client of the service per process, holding its credentials and token cache.
 * Nothing it holds ever leaves the server.
 */
export function upstream(): UpstreamClient {
  const holder = globalThis as Holder;
  holder[KEY] ??= createUpstreamClient({
    baseUrl: env.service.baseUrl,
    timeoutMs: env.SERVICE_TIMEOUT_MS,
    tokens: createTokenCache({
      tokenUrl: env.service.authUrl,
      clientId: env.service.clientId,
      clientSecret: env.service.clientSecret,
    }),
  });
  return holder[KEY];
}

/**
 * The scopes the dashboard asks for. Every call uses the whole set, so one cached token
 * serves them all: the token endpoint allows about one request per second, and a token
 * per operation would trip it as soon as a page loads.
 */
const DASHBOARD_SCOPES = [
  "exchange:write_order",
  "exchange:read_order",
  "transfer:write_internal_transfer",
  "transfer:read_transfer",
  "funding:read_profile",
] as const;

/** Which scope each kind of call needs (all of them come with the one token). */
export const SCOPE = {
  writeOrder: DASHBOARD_SCOPES,
  readOrder: DASHBOARD_SCOPES,
  writeTransfer: DASHBOARD_SCOPES,
  readTransfer: DASHBOARD_SCOPES,
  readProfile: DASHBOARD_SCOPES,
  public: DASHBOARD_SCOPES,
} as const;
