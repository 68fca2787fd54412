/** What the sandbox needs from the dashboard's configuration (passed in; lib/sandbox reads no env). */
export interface SandboxConfig {
  dataDir: string;
  clientId: string;
  clientSecret: string;
  tokenTtlSeconds: number;
  tokenRatePerSecond: number;
  apiRatePerSecond: number;
  transferRatePerSecond: number;
  marketMaker: boolean;
  seed: string;
  transferSettleMillis: number;
}
