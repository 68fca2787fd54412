import { createInternalTransferRequestSchema, createOrderRequestSchema } from "@/lib/spec";
import { formatTrimmed } from "@/lib/sandbox/engine/amounts";
import { Exchange } from "@/lib/sandbox/engine/exchange";
import { toOrderRecord } from "@/lib/sandbox/engine/records";

export const T0 = 1_800_000_000_000;

/** An exchange with a pinned clock and four profiles: alice and carol (customer c1), bob (c2), dave (c3). */
export function harness({ settleMillis = 1000, cancelSettleMillis = 500 } = {}) {
  const clock = { now: T0 };
  let ids = 0;
  const ex = new Exchange({
    now: () => clock.now,
    newId: () => `id-${++ids}`,
    transferSettleMillis: settleMillis,
    cancelSettleMillis,
  });
  const customerOf: Record<string, string> = { alice: "c1", carol: "c1", bob: "c2", dave: "c3" };
  for (const [id, customerId] of Object.entries(customerOf)) {
    ex.addProfile({ id, customerId, nickname: id, type: "NORMAL" });
  }
  const orderSchema = createOrderRequestSchema({ now: () => clock.now });

  /** Submits and matches at once; returns the order's record. */
  function place(profile: string, request: Record<string, unknown>) {
    const order = ex.submitOrder(customerOf[profile]!, profile, orderSchema.parse(request));
    ex.processSubmitted();
    return order;
  }
  const record = (id: string) => toOrderRecord(ex.orders.get(id)!);
  const fund = (profile: string, asset: string, amount: string) =>
    ex.deposit(customerOf[profile]!, profile, asset, amount);
  const balance = (profile: string, asset: string) => {
    const b = ex.ledger.balance(profile, asset);
    return { available: formatTrimmed(b.available), trading: formatTrimmed(b.trading) };
  };
  const transfer = (request: Record<string, unknown>) =>
    ex.createInternalTransfer(
      customerOf[request.from_profile_id as string]!,
      createInternalTransferRequestSchema.parse(request),
    );
  const advance = (ms: number) => {
    clock.now += ms;
    ex.advance();
  };
  return { ex, clock, place, record, fund, balance, transfer, advance, customerOf };
}

export const limit = (side: "BUY" | "SELL", price: string, base_amount: string, extra: object = {}) => ({
  market: "ETHUSD",
  type: "LIMIT",
  side,
  price,
  base_amount,
  ...extra,
});
