/** What the sandbox needs from the dashboard's configuration (passed in; lib/sandbox reads no env). */
export interface SandboxConfig {
  dataDir: string;
  clientId: string;
  clientSecret: string;
  tokenTtlSeconds: number;
  tokenRatePerSecond: number;
  apiRatePerSecond: number;
  transferRatePerSecond: number;
  orderBookRatePerSecond: number;
  /** Seconds a client (or anonymous IP) that earned a 429 is refused. */
  ratePenaltySeconds: number;
  marketMaker: boolean;
  seed: string;
  transferSettleMillis: number;
  /** Delay between an acknowledged Cancel Order and the order becoming CANCELLED (0: at once). */
  cancelSettleMillis: number;
  /** Where a failure the sandbox survives is reported (the dashboard's logger); unset: nowhere. */
  onError?: (what: string, error: unknown) => void;
}

/** The variables of the dashboard's configuration that the sandbox reads. */
export interface SandboxEnv {
  DATA_DIR: string;
  SANDBOX_CLIENT_ID: string;
  SANDBOX_CLIENT_SECRET: string;
  SANDBOX_TOKEN_TTL_SECONDS: number;
  SANDBOX_TOKEN_RATE_PER_SECOND: number;
  SANDBOX_API_RATE_PER_SECOND: number;
  SANDBOX_TRANSFER_RATE_PER_SECOND: number;
  SANDBOX_ORDER_BOOK_RATE_PER_SECOND: number;
  SANDBOX_RATE_PENALTY_SECONDS: number;
  SANDBOX_MARKET_MAKER: "on" | "off";
  SANDBOX_SEED: string;
  SANDBOX_TRANSFER_SETTLE_MS: number;
  SANDBOX_CANCEL_SETTLE_MS: number;
}

export const sandboxConfigFromEnv = (env: SandboxEnv): SandboxConfig => ({
  dataDir: env.DATA_DIR,
  clientId: env.SANDBOX_CLIENT_ID,
  clientSecret: env.SANDBOX_CLIENT_SECRET,
  tokenTtlSeconds: env.SANDBOX_TOKEN_TTL_SECONDS,
  tokenRatePerSecond: env.SANDBOX_TOKEN_RATE_PER_SECOND,
  apiRatePerSecond: env.SANDBOX_API_RATE_PER_SECOND,
  transferRatePerSecond: env.SANDBOX_TRANSFER_RATE_PER_SECOND,
  orderBookRatePerSecond: env.SANDBOX_ORDER_BOOK_RATE_PER_SECOND,
  ratePenaltySeconds: env.SANDBOX_RATE_PENALTY_SECONDS,
  marketMaker: env.SANDBOX_MARKET_MAKER === "on",
  seed: env.SANDBOX_SEED,
  transferSettleMillis: env.SANDBOX_TRANSFER_SETTLE_MS,
  cancelSettleMillis: env.SANDBOX_CANCEL_SETTLE_MS,
});
