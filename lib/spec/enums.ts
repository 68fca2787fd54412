/** Every enumeration of the service interface: its records' and its requests' fixed values. */

export const MARKETS = [
  "ETHEUR",
  "ETHSGD",
  "ETHUSD",
  "BTCEUR",
  "BTCSGD",
  "BTCUSD",
  "GOLDUSD",
  "BCHUSD",
  "LTCUSD",
  "USDPUSD",
  "LINKUSD",
  "MATICUSD",
  "AAVEUSD",
  "UNIUSD",
] as const;
export const ORDER_SIDES = ["BUY", "SELL"] as const;
export const ORDER_TYPES = ["LIMIT", "MARKET", "POST_ONLY_LIMIT", "STOP_MARKET", "STOP_LIMIT"] as const;
export const ORDER_STATUSES = ["PENDING_SUBMISSION", "SUBMITTED", "OPEN", "FILLED", "CANCELLED", "REJECTED"] as const;
export const TIMES_IN_FORCE = ["GTC", "FOK", "IOC", "GTT"] as const;
export const TRANSFER_DIRECTIONS = ["CREDIT", "DEBIT"] as const;
export const TRANSFER_STATUSES = ["PENDING", "COMPLETED", "FAILED"] as const;
export const TRANSFER_TYPES = [
  "INTERNAL_TRANSFER_DEBIT",
  "INTERNAL_TRANSFER_CREDIT",
  "CRYPTO_DEPOSIT",
  "CRYPTO_WITHDRAWAL",
  "WIRE_DEPOSIT",
  "WIRE_WITHDRAWAL",
  "SEN_DEPOSIT",
  "SEN_WITHDRAWAL",
  "BANK_DEPOSIT",
  "BANK_WITHDRAWAL",
  "PLATFORM_TRANSFER_DEBIT",
  "PLATFORM_TRANSFER_CREDIT",
  "SIGNET_DEPOSIT",
  "SIGNET_WITHDRAWAL",
  "CBIT_WITHDRAWAL",
  "CBIT_DEPOSIT",
  "CUBIX_DEPOSIT",
  "CUBIX_WITHDRAWAL",
  "RTP_DEPOSIT",
] as const;
export const CRYPTO_NETWORKS = [
  "BITCOIN",
  "ETHEREUM",
  "BITCOIN_CASH",
  "LITECOIN",
  "SOLANA",
  "POLYGON_POS",
  "BASE",
  "ARBITRUM_ONE",
  "STELLAR",
  "INK",
  "XLAYER",
] as const;

export type Market = (typeof MARKETS)[number];
export type OrderSide = (typeof ORDER_SIDES)[number];
export type OrderType = (typeof ORDER_TYPES)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type TimeInForce = (typeof TIMES_IN_FORCE)[number];
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
export type TransferType = (typeof TRANSFER_TYPES)[number];

/** Final order statuses: nothing more will happen to the order. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = ["FILLED", "CANCELLED", "REJECTED"];
export const FINAL_TRANSFER_STATUSES: readonly TransferStatus[] = ["COMPLETED", "FAILED"];

/** Words a treasury user reads, for messages and the review step. */
export const ORDER_TYPE_WORDS: Record<OrderType, string> = {
  LIMIT: "limit",
  MARKET: "market",
  POST_ONLY_LIMIT: "post-only limit",
  STOP_MARKET: "stop market",
  STOP_LIMIT: "stop limit",
};
