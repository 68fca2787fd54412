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

/** The OAuth scope each kind of call needs. */
export const SCOPE = {
  writeOrder: ["exchange:write_order"],
  readOrder: ["exchange:read_order"],
  writeTransfer: ["transfer:write_internal_transfer"],
  readTransfer: ["transfer:read_transfer"],
  readProfile: ["funding:read_profile"],
  public: [] as string[],
} as const;
