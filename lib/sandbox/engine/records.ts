import { BASE_AMOUNT_SCALE, type Order, type Transfer } from "@/lib/spec";
import { divRound, formatFixed } from "./amounts";
import type { EngineOrder, EngineTransfer } from "./types";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * How an order's unused amounts (price, base_amount, quote_amount) read, per endpoint, as the
 * service answers them: "" from Create Order and Get Order, "0" in List Orders.
 */
export type UnusedAmount = "" | "0";

/** The Order record (lib/spec `orderRecordSchema`), every field present; unused amounts read `unused`. */
export function toOrderRecord(o: EngineOrder, unused: UnusedAmount = ""): Order {
  const r = o.request;
  const vwap = o.filledBase === 0n ? 0n : divRound(o.filledQuote, o.filledBase, BASE_AMOUNT_SCALE);
  return {
    id: o.id,
    profile_id: o.profileId,
    ref_id: o.refId,
    status: o.status,
    side: o.side,
    market: o.market,
    type: o.type,
    base_amount: r.base_amount ?? unused,
    price: r.price ?? unused,
    quote_amount: r.quote_amount ?? unused,
    metadata: r.metadata ?? {},
    created_at: iso(o.createdAt),
    modified_at: iso(o.modifiedAt),
    amount_filled: formatFixed(o.filledBase, BASE_AMOUNT_SCALE),
    volume_weighted_average_price: formatFixed(vwap, BASE_AMOUNT_SCALE),
    time_in_force: o.timeInForce,
    expiration_date: o.expiresAt === null ? "" : iso(o.expiresAt),
    identity_id: r.identity_id ?? "",
    identity_account_id: r.identity_account_id ?? "",
    stop_price: r.stop_price ?? "",
    recipient_profile_id: r.recipient_profile_id ?? "",
    is_triggered: o.isTriggered,
  };
}

/** The Transfer record (lib/spec `transferRecordSchema`) for one leg. */
export function toTransferRecord(t: EngineTransfer): Transfer {
  return {
    id: t.id,
    customer_id: t.customerId,
    profile_id: t.profileId,
    amount: t.amount,
    total: t.amount,
    fee: "0",
    asset: t.asset,
    balance_asset: t.asset,
    direction: t.direction,
    type: t.type,
    status: t.status,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    ...(t.refId !== undefined ? { ref_id: t.refId } : {}),
    ...(t.groupId !== undefined ? { group_id: t.groupId } : {}),
    ...(t.identityId !== undefined ? { identity_id: t.identityId } : {}),
    ...(t.accountId !== undefined ? { account_id: t.accountId } : {}),
    metadata: t.metadata ?? {},
    auto_conversion: {},
  };
}
