import {
  REF_ID_REUSE_AFTER_MILLIS,
  type CreateInternalTransferRequest,
  type CreateOrderRequest,
  type Market,
  type OrderStatus,
} from "@/lib/spec";
import { mul } from "./amounts";
import { ChangeLog, type Changes } from "./changes";
import { Ledger } from "./ledger";
import { checkServiceLimits } from "./limits";
import { openMarkets, oppositeSide, ownSide, type MarketState } from "./market";
import { execute, restStop, type Venue } from "./matching";
import { FINAL, holdOf, newOrder } from "./orders";
import { problems, withFunds } from "./problems";
import { toOrderRecord } from "./records";
import { RefIds } from "./ref-ids";
import type { TradeStats } from "./stats";
import { Transfers } from "./transfers";
import type { EngineOrder, EngineTransfer, Profile } from "./types";

export type { Changes } from "./changes";

export interface ExchangeOptions {
  now: () => number;
  newId: () => string;
  /** Delay before an internal transfer's legs become COMPLETED. */
  transferSettleMillis?: number;
  /** Delay between an acknowledged Cancel Order and the order becoming CANCELLED (0: at once). */
  cancelSettleMillis?: number;
  /** Customers (the market maker, the flow trader) whose closed orders are not kept. */
  houseCustomers?: ReadonlySet<string>;
}

/**
 * The simulated service's core: profiles, a ledger, one order book per market and
 * internal transfers. Pure and synchronous: no I/O, no timers. The runtime feeds it
 * commands and the clock; the store persists what `drainChanges` returns.
 */
export class Exchange {
  readonly ledger = new Ledger();
  readonly profiles = new Map<string, Profile>();
  readonly orders = new Map<string, EngineOrder>();
  /** Every transfer leg and deposit, by id. */
  readonly transfers: ReadonlyMap<string, EngineTransfer>;
  private readonly markets = openMarkets();
  private readonly submitted: EngineOrder[] = [];
  private readonly orderRefs = new RefIds(this.orders);
  private readonly expiring = new Set<EngineOrder>();
  /** Orders whose acknowledged cancel has not taken effect yet. */
  private readonly cancelling = new Set<EngineOrder>();
  private seq = 0;
  private readonly changes = new ChangeLog();
  private readonly transferDesk: Transfers;
  private readonly listeners = new Set<(order: EngineOrder) => void>();
  /** What matching sees of the exchange. */
  private readonly venue: Venue = {
    ledger: this.ledger,
    now: () => this.now,
    market: (market) => this.marketState(market),
    changed: (order) => this.changed(order),
    close: (order, status) => this.close(order, status),
    queue: (order) => this.submitted.push(order),
  };

  constructor(private readonly options: ExchangeOptions) {
    this.transferDesk = new Transfers(this.ledger, this.changes.transfers, {
      now: options.now,
      newId: options.newId,
      settleMillis: options.transferSettleMillis ?? 0,
    });
    this.transfers = this.transferDesk.records;
  }

  private get now(): number {
    return this.options.now();
  }

  /** Called on every change of an order (await_fill_millis waits on this). */
  onOrderChange(listener: (order: EngineOrder) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(order: EngineOrder): void {
    order.modifiedAt = this.now;
    this.changes.orders.add(order);
    for (const listener of this.listeners) listener(order);
  }

  private marketState(market: Market): MarketState {
    return this.markets.get(market)!;
  }

  // ---- profiles and funding -------------------------------------------------------------

  addProfile(profile: Profile): void {
    this.profiles.set(profile.id, profile);
    this.changes.profiles.add(profile);
  }

  /** The customer's own profile, or a 404 problem. */
  profileOf(customerId: string, profileId: string): Profile {
    const profile = this.profiles.get(profileId);
    if (!profile || profile.customerId !== customerId) throw problems.notFound(`profile not found: ${profileId}`);
    return profile;
  }

  /** A sandbox deposit: credits the profile at once and records a COMPLETED deposit transfer. */
  deposit(customerId: string, profileId: string, asset: string, amount: string): EngineTransfer {
    this.profileOf(customerId, profileId);
    return this.transferDesk.deposit(customerId, profileId, asset, amount);
  }

  // ---- orders ---------------------------------------------------------------------------

  /**
   * Accepts an order as SUBMITTED and holds its funds; matching happens in `processSubmitted`,
   * as the real service answers: a create returns SUBMITTED before the order reaches the book.
   * The request must already have passed `createOrderRequestSchema`.
   */
  submitOrder(customerId: string, profileId: string, request: CreateOrderRequest): EngineOrder {
    this.profileOf(customerId, profileId);
    if (request.recipient_profile_id !== undefined) this.profileOf(customerId, request.recipient_profile_id);
    this.checkRefIdFree(customerId, request.ref_id);
    const state = this.marketState(request.market);
    if (request.type === "MARKET" && oppositeSide(state, request.side).size === 0) throw problems.marketConditions();
    checkServiceLimits(request, state);
    const hold = holdOf(request);
    withFunds(() => this.ledger.hold(profileId, hold.holdAsset, hold.held));

    const order = newOrder(request, {
      id: this.options.newId(),
      seq: ++this.seq,
      profileId,
      customerId,
      createdAt: this.now,
      ...hold,
    });
    this.orders.set(order.id, order);
    if (order.refId) this.orderRefs.bind(customerId, order.refId, order.id);
    if (order.expiresAt !== null) this.expiring.add(order);
    this.submitted.push(order);
    this.changed(order);
    return order;
  }

  /** An order's ref_id may be reused only once that order has been closed for more than 24 hours. */
  private checkRefIdFree(customerId: string, refId: string | undefined): void {
    if (!refId) return;
    const existing = this.orderRefs.find(customerId, refId);
    if (!existing) return;
    const reusable = existing.closedAt !== null && this.now - existing.closedAt > REF_ID_REUSE_AFTER_MILLIS;
    if (!reusable) {
      throw problems.alreadyExists(`order already exists with ref_id '${refId}'`, toOrderRecord(existing));
    }
  }

  /** Matches every order accepted since the last call, and any stops they trigger. */
  processSubmitted(): void {
    let order: EngineOrder | undefined;
    while ((order = this.submitted.shift())) {
      if (!FINAL.has(order.status)) execute(order, this.venue);
    }
  }

  private close(order: EngineOrder, status: OrderStatus): void {
    order.status = status;
    order.closedAt = this.now;
    if (order.held > 0n) this.ledger.release(order.profileId, order.holdAsset, order.held);
    order.held = 0n;
    this.expiring.delete(order);
    this.cancelling.delete(order);
    this.changed(order);
    // House orders are scenery: their trades live on in the market's stats, not as records.
    if (this.options.houseCustomers?.has(order.customerId)) {
      this.orders.delete(order.id);
      this.changes.orders.delete(order);
      this.changes.forgotten.add(order.id);
    }
  }

  /** The customer's order that may still be cancelled, or the 404 or 403 that says why not. */
  private cancellable(customerId: string, profileId: string, orderId: string): EngineOrder {
    this.profileOf(customerId, profileId);
    const order = this.orders.get(orderId);
    if (!order || order.profileId !== profileId) throw problems.notFound(`order not found: ${orderId}`);
    if (FINAL.has(order.status)) throw problems.forbidden("order is not in cancellable state");
    return order;
  }

  /** Cancels an open order of the customer's profile at once, releasing what it holds (the house's requotes). */
  cancelOrder(customerId: string, profileId: string, orderId: string): EngineOrder {
    const order = this.cancellable(customerId, profileId, orderId);
    this.withdraw(order);
    this.close(order, "CANCELLED");
    return order;
  }

  /**
   * Cancel Order as the service answers it: the request is acknowledged now and the order is
   * CANCELLED `cancelSettleMillis` later, by `advance`. Until then it stays where it is and may
   * still fill (a fill wins; only what is left is cancelled), and its hold stays with it, so
   * the ledger never releases what a fill may still spend. Asking again keeps the first time.
   */
  requestCancel(customerId: string, profileId: string, orderId: string): EngineOrder {
    const order = this.cancellable(customerId, profileId, orderId);
    const settle = this.options.cancelSettleMillis ?? 0;
    if (settle <= 0) return this.cancelOrder(customerId, profileId, orderId);
    if (order.cancelAt === undefined) {
      order.cancelAt = this.now + settle;
      this.cancelling.add(order);
      // Stored, so a restart still cancels it; not `changed`: the record itself is unchanged.
      this.changes.orders.add(order);
    }
    return order;
  }

  /** Takes an order out of wherever it waits: the book, the stop list or the submitted queue. */
  private withdraw(order: EngineOrder): void {
    const state = this.marketState(order.market);
    ownSide(state, order.side).remove(order.id);
    const stopIndex = state.stops.indexOf(order);
    if (stopIndex >= 0) state.stops.splice(stopIndex, 1);
    const queued = this.submitted.indexOf(order);
    if (queued >= 0) this.submitted.splice(queued, 1);
  }

  // ---- internal transfers ---------------------------------------------------------------

  /** Moves an amount between two of the customer's profiles; `advance` settles its legs. */
  createInternalTransfer(customerId: string, request: CreateInternalTransferRequest): EngineTransfer {
    this.profileOf(customerId, request.from_profile_id);
    this.profileOf(customerId, request.to_profile_id);
    return this.transferDesk.createInternal(customerId, request);
  }

  // ---- the clock ------------------------------------------------------------------------

  /** Expires GTT orders, carries out acknowledged cancels and settles transfers whose time has come. */
  advance(): void {
    const now = this.now;
    for (const order of [...this.cancelling]) {
      if (order.cancelAt! <= now) this.withdrawAndCancel(order);
    }
    for (const order of [...this.expiring]) {
      if (order.expiresAt! <= now && !FINAL.has(order.status)) this.withdrawAndCancel(order);
    }
    this.transferDesk.settleDue(now);
  }

  private withdrawAndCancel(order: EngineOrder): void {
    this.withdraw(order);
    this.close(order, "CANCELLED");
  }

  // ---- reads ----------------------------------------------------------------------------

  orderBook(market: Market, depth = 50) {
    const state = this.marketState(market);
    return { bids: state.bids.depth(depth), asks: state.asks.depth(depth) };
  }

  tradeStats(market: Market): TradeStats {
    return this.marketState(market).stats;
  }

  // ---- persistence ----------------------------------------------------------------------

  drainChanges(): Changes {
    return this.changes.drain(this.ledger);
  }

  /** Puts a stored open order back. Restore in `seq` order, then call `processSubmitted`. */
  restoreOrder(order: EngineOrder): void {
    this.orders.set(order.id, order);
    this.seq = Math.max(this.seq, order.seq);
    if (order.refId) this.orderRefs.bind(order.customerId, order.refId, order.id);
    if (FINAL.has(order.status)) return;
    if (order.expiresAt !== null) this.expiring.add(order);
    if (order.cancelAt !== undefined) this.cancelling.add(order);
    // Untriggered stops wait for a trade; everything else runs through matching again, in
    // arrival order, which rebuilds the book exactly and finishes what a crash interrupted.
    if (order.stopPrice !== null && !order.isTriggered) restStop(order, this.marketState(order.market), this.venue);
    else this.submitted.push(order);
  }

  restoreTransfer(t: EngineTransfer): void {
    this.transferDesk.restore(t);
  }

  restoreTrade(market: Market, price: bigint, amount: bigint, at: number): void {
    this.marketState(market).stats.record(price, amount, mul(price, amount), at);
  }

  /** Clears what restoring marked dirty: it is already stored. */
  markClean(): void {
    this.drainChanges();
  }
}
