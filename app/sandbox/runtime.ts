import "server-only";
import { env } from "@/lib/server/env";
import { getSandbox, type SandboxRuntime } from "@/lib/sandbox/runtime";

/** The embedded sandbox, configured from the validated environment; null when SANDBOX=off. */
export function sandbox(): SandboxRuntime | null {
  if (env.SANDBOX === "off") return null;
  return getSandbox({
    dataDir: env.DATA_DIR,
    clientId: env.SANDBOX_CLIENT_ID,
    clientSecret: env.SANDBOX_CLIENT_SECRET,
    tokenTtlSeconds: env.SANDBOX_TOKEN_TTL_SECONDS,
    tokenRatePerSecond: env.SANDBOX_TOKEN_RATE_PER_SECOND,
    apiRatePerSecond: env.SANDBOX_API_RATE_PER_SECOND,
    transferRatePerSecond: env.SANDBOX_TRANSFER_RATE_PER_SECOND,
    marketMaker: env.SANDBOX_MARKET_MAKER === "on",
    seed: env.SANDBOX_SEED,
    transferSettleMillis: env.SANDBOX_TRANSFER_SETTLE_MS,
  });
}
