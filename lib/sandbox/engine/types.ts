import type {
  CreateOrderRequest,
  Market,
  OrderSide,
  OrderStatus,
  OrderType,
  TimeInForce,
  TransferDirection,
  TransferStatus,
  TransferType,
} from "@/lib/spec";
import type { Resting } from "./book";

export interface Profile {
  id: string;
  customerId: string;
  nickname: string;
  type: "NORMAL" | "DEFAULT";
}

/** An order inside the engine. Amounts are bigints at the engine's scale (amounts.ts). */
export interface EngineOrder extends Resting {
  profileId: string;
  customerId: string;
  refId: string;
  side: OrderSide;
  market: Market;
  type: OrderType;
  timeInForce: TimeInForce;
  /** Limit price, or 0n for a market order (never in a book then). */
  price: bigint;
  stopPrice: bigint | null;
  baseAmount: bigint | null;
  quoteAmount: bigint | null;
  filledBase: bigint;
  filledQuote: bigint;
  /** What the order still holds in `trading`, of `holdAsset`. */
  held: bigint;
  holdAsset: string;
  status: OrderStatus;
  isTriggered: boolean;
  expiresAt: number | null;
  createdAt: number;
  modifiedAt: number;
  closedAt: number | null;
  /**
   * When an acknowledged Cancel Order takes effect (absent: none asked). Until then the order
   * still trades: a fill in between wins, and only what is left is cancelled.
   */
  cancelAt?: number;
  /** The request as sent, so records echo the client's own strings and options. */
  request: CreateOrderRequest;
}

export interface EngineTransfer {
  id: string;
  customerId: string;
  profileId: string;
  amount: string;
  asset: string;
  direction: TransferDirection;
  type: TransferType;
  status: TransferStatus;
  createdAt: number;
  updatedAt: number;
  /** When a PENDING transfer becomes COMPLETED. */
  settleAt: number | null;
  refId?: string;
  groupId?: string;
  metadata?: Record<string, string>;
  identityId?: string;
  accountId?: string;
}
