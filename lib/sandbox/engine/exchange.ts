import {
  BASE_AMOUNT_SCALE,
  MARKETS,
  MARKET_DETAILS,
  REF_ID_REUSE_AFTER_MILLIS,
  effectiveTimeInForce,
  type CreateInternalTransferRequest,
  type CreateOrderRequest,
  type Market,
  type OrderStatus,
} from "@/lib/spec";
import { divDown, divRound, formatTrimmed, min, mul, parseAmount } from "./amounts";
import { BookSide } from "./book";
import { InsufficientFunds, Ledger } from "./ledger";
import { problems } from "./problems";
import { toOrderRecord, toTransferRecord } from "./records";
import { TradeStats } from "./stats";
import type { EngineOrder, EngineTransfer, Profile } from "./types";

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

interface MarketState {
  bids: BookSide<EngineOrder>;
  asks: BookSide<EngineOrder>;
  /** Untriggered sell stops, highest stop price first, then by arrival. */
  stops: EngineOrder[];
  stats: TradeStats;
}

/** What changed since the last drain: the store persists exactly this, in one transaction. */
export interface Changes {
  profiles: Profile[];
  orders: EngineOrder[];
  forgottenOrders: string[];
  transfers: EngineTransfer[];
  balances: { profileId: string; asset: string; available: bigint; trading: bigint }[];
}

const FINAL: ReadonlySet<OrderStatus> = new Set(["FILLED", "CANCELLED", "REJECTED"]);
const ONE_BASE_UNIT = 10n ** 10n; // 1e-8 at the engine's 18-place scale

/**
 * The simulated service's core: profiles, a ledger, one order book per market and
 * internal transfers. Pure and synchronous: no I/O, no timers. The runtime feeds it
 * commands and the clock; the store persists what `drainChanges` returns.
 */
export class Exchange {
  readonly ledger = new Ledger();
  readonly profiles = new Map<string, Profile>();
  readonly orders = new Map<string, EngineOrder>();
  readonly transfers = new Map<string, EngineTransfer>();
  private markets = new Map<Market, MarketState>();
  private submitted: EngineOrder[] = [];
  private orderRefs = new Map<string, string>();
  private transferRefs = new Map<string, string>();
  private expiring = new Set<EngineOrder>();
  /** Orders whose acknowledged cancel has not taken effect yet. */
  private cancelling = new Set<EngineOrder>();
  private pendingTransfers = new Set<EngineTransfer>();
  private seq = 0;
  private dirtyOrders = new Set<EngineOrder>();
  private dirtyTransfers = new Set<EngineTransfer>();
  private dirtyProfiles = new Set<Profile>();
  private forgotten = new Set<string>();
  private listeners = new Set<(order: EngineOrder) => void>();

  constructor(private readonly options: ExchangeOptions) {
    for (const market of MARKETS) {
      this.markets.set(market, {
        bids: new BookSide("BUY"),
        asks: new BookSide("SELL"),
        stops: [],
        stats: new TradeStats(),
      });
    }
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
    this.dirtyOrders.add(order);
    for (const listener of this.listeners) listener(order);
  }

  // ---- profiles and funding -------------------------------------------------------------

  addProfile(profile: Profile): void {
    this.profiles.set(profile.id, profile);
    this.dirtyProfiles.add(profile);
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
    const units = parseAmount(amount);
    this.ledger.credit(profileId, asset, units);
    const fiat = MARKETS.some((m) => MARKET_DETAILS[m].quote_asset === asset);
    const transfer: EngineTransfer = {
      id: this.options.newId(),
      customerId,
      profileId,
      amount: formatTrimmed(units),
      asset,
      direction: "CREDIT",
      type: fiat ? "WIRE_DEPOSIT" : "CRYPTO_DEPOSIT",
      status: "COMPLETED",
      createdAt: this.now,
      updatedAt: this.now,
      settleAt: null,
    };
    this.saveTransfer(transfer);
    return transfer;
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

    const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[request.market];
    const isMarket = request.type === "MARKET";
    const state = this.marketState(request.market);
    if (isMarket && (request.side === "BUY" ? state.asks : state.bids).size === 0) {
      throw problems.marketConditions();
    }
    const price = request.price ? parseAmount(request.price) : 0n;
    const baseAmount = request.base_amount ? parseAmount(request.base_amount) : null;
    const quoteAmount = request.quote_amount ? parseAmount(request.quote_amount) : null;
    checkServiceLimits(request, state);
    const buy = request.side === "BUY";
    const holdAsset = buy ? quote : base;
    const held = buy ? (quoteAmount ?? mul(price, baseAmount!)) : baseAmount!;
    this.holdFunds(profileId, holdAsset, held);

    const now = this.now;
    const order: EngineOrder = {
      id: this.options.newId(),
      seq: ++this.seq,
      profileId,
      customerId,
      refId: request.ref_id ?? "",
      side: request.side,
      market: request.market,
      type: request.type,
      timeInForce: effectiveTimeInForce(request.type, request.time_in_force),
      price,
      stopPrice: request.stop_price ? parseAmount(request.stop_price) : null,
      baseAmount,
      quoteAmount,
      open: baseAmount ?? 0n,
      filledBase: 0n,
      filledQuote: 0n,
      held,
      holdAsset,
      status: "SUBMITTED",
      isTriggered: false,
      expiresAt: request.expiration_date ? Number(request.expiration_date) : null,
      createdAt: now,
      modifiedAt: now,
      closedAt: null,
      request,
    };
    this.orders.set(order.id, order);
    if (order.refId) this.orderRefs.set(`${customerId}\u0000${order.refId}`, order.id);
    if (order.expiresAt !== null) this.expiring.add(order);
    this.submitted.push(order);
    this.changed(order);
    return order;
  }

  private holdFunds(profileId: string, asset: string, amount: bigint): void {
    try {
      this.ledger.hold(profileId, asset, amount);
    } catch (error) {
      if (!(error instanceof InsufficientFunds)) throw error;
      throw problems.insufficientFunds(profileId, asset, formatTrimmed(error.available), formatTrimmed(amount));
    }
  }

  /** An order's ref_id may be reused only once that order has been closed for more than 24 hours. */
  private checkRefIdFree(customerId: string, refId: string | undefined): void {
    if (!refId) return;
    const existing = this.orders.get(this.orderRefs.get(`${customerId}\u0000${refId}`) ?? "");
    if (!existing) return;
    const reusable = existing.closedAt !== null && this.now - existing.closedAt > REF_ID_REUSE_AFTER_MILLIS;
    if (!reusable) {
      throw problems.alreadyExists(`order already exists with ref_id '${refId}'`, toOrderRecord(existing));
    }
  }

  findOrderByRef(customerId: string, refId: string): EngineOrder | undefined {
    return this.orders.get(this.orderRefs.get(`${customerId}\u0000${refId}`) ?? "");
  }

  /** Matches every order accepted since the last call, and any stops they trigger. */
  processSubmitted(): void {
    let order: EngineOrder | undefined;
    while ((order = this.submitted.shift())) {
      if (!FINAL.has(order.status)) this.execute(order);
    }
  }

  get hasSubmitted(): boolean {
    return this.submitted.length > 0;
  }

  private marketState(market: Market): MarketState {
    return this.markets.get(market)!;
  }

  private execute(order: EngineOrder): void {
    const state = this.marketState(order.market);
    const isStop = order.type === "STOP_MARKET" || order.type === "STOP_LIMIT";
    if (isStop && !order.isTriggered) {
      const last = state.stats.last?.price;
      if (last === undefined || last > order.stopPrice!) return this.restStop(order, state);
      order.isTriggered = true;
    }
    const opposite = order.side === "BUY" ? state.asks : state.bids;
    if (order.type === "POST_ONLY_LIMIT" && this.crosses(order, opposite)) return this.close(order, "REJECTED");
    if (order.timeInForce === "FOK" && !this.canFillEntirely(order, opposite)) return this.close(order, "CANCELLED");

    const stoppedBySelfMatch = this.match(order, opposite);
    if (this.isDone(order)) return this.close(order, "FILLED");
    const takesOnly =
      order.type === "MARKET" || order.type === "STOP_MARKET" || order.timeInForce === "IOC" || stoppedBySelfMatch;
    if (takesOnly) return this.close(order, "CANCELLED");
    (order.side === "BUY" ? state.bids : state.asks).add(order);
    if (order.status !== "OPEN") {
      order.status = "OPEN";
      this.changed(order);
    }
  }

  private restStop(order: EngineOrder, state: MarketState): void {
    const i = state.stops.findIndex(
      (s) => s.stopPrice! < order.stopPrice! || (s.stopPrice === order.stopPrice && s.seq > order.seq),
    );
    state.stops.splice(i === -1 ? state.stops.length : i, 0, order);
    if (order.status !== "OPEN") {
      order.status = "OPEN";
      this.changed(order);
    }
  }

  private acceptable(order: EngineOrder, price: bigint): boolean {
    if (order.type === "MARKET" || order.type === "STOP_MARKET") return true;
    return order.side === "BUY" ? price <= order.price : price >= order.price;
  }

  private crosses(order: EngineOrder, opposite: BookSide<EngineOrder>): boolean {
    const best = opposite.bestPrice();
    return best !== undefined && this.acceptable(order, best);
  }

  /** Base amount the order can still take at `price` (a market buy: what its budget buys). */
  private wants(order: EngineOrder, price: bigint): bigint {
    if (order.quoteAmount !== null) return divDown(order.quoteAmount - order.filledQuote, price, BASE_AMOUNT_SCALE);
    return order.open;
  }

  private isDone(order: EngineOrder): boolean {
    if (order.quoteAmount === null) return order.open === 0n;
    // A market buy is filled once what is left of its budget cannot buy one base unit.
    const lastPrice = this.marketState(order.market).stats.last?.price;
    const left = order.quoteAmount - order.filledQuote;
    return order.filledBase > 0n && lastPrice !== undefined && left < mul(lastPrice, ONE_BASE_UNIT);
  }

  /** A dry run of `match` for fill-or-kill: could the whole order fill now? */
  private canFillEntirely(order: EngineOrder, opposite: BookSide<EngineOrder>): boolean {
    let need = order.open;
    for (const resting of opposite.inPriority()) {
      if (!this.acceptable(order, resting.price)) break;
      if (resting.customerId === order.customerId) {
        if (order.request.self_match_prevention_id) return false;
        continue;
      }
      need -= min(need, resting.open);
      if (need === 0n) return true;
    }
    return false;
  }

  /**
   * Takes liquidity at acceptable prices in price-time order. Against the same customer's
   * resting order: without a self-match prevention id the resting order is cancelled; with
   * one, the two do not match and the incoming order stops (returns true).
   */
  private match(order: EngineOrder, opposite: BookSide<EngineOrder>): boolean {
    for (let resting = opposite.best(); resting; resting = opposite.best()) {
      if (!this.acceptable(order, resting.price)) return false;
      if (resting.customerId === order.customerId) {
        if (order.request.self_match_prevention_id) return true;
        opposite.remove(resting.id);
        this.close(resting, "CANCELLED");
        continue;
      }
      const amount = min(this.wants(order, resting.price), resting.open);
      if (amount === 0n) return false;
      this.fill(order, resting, amount, resting.price);
      if (resting.open === 0n) {
        opposite.remove(resting.id);
        this.close(resting, "FILLED");
      }
      if (this.isDone(order)) return false;
    }
    return false;
  }

  private fill(taker: EngineOrder, maker: EngineOrder, amount: bigint, price: bigint): void {
    const notional = mul(amount, price);
    const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[taker.market];
    const [buyer, seller] = taker.side === "BUY" ? [taker, maker] : [maker, taker];
    this.ledger.spendHeld(buyer.profileId, quote, notional);
    buyer.held -= notional;
    this.ledger.credit(buyer.request.recipient_profile_id ?? buyer.profileId, base, amount);
    this.ledger.spendHeld(seller.profileId, base, amount);
    seller.held -= amount;
    this.ledger.credit(seller.request.recipient_profile_id ?? seller.profileId, quote, notional);
    for (const o of [taker, maker]) {
      o.filledBase += amount;
      o.filledQuote += notional;
      if (o.baseAmount !== null) o.open -= amount;
      this.changed(o);
    }
    const state = this.marketState(taker.market);
    state.stats.record(price, amount, notional, this.now);
    this.triggerStops(state, price);
  }

  /** Sell stops fire when the last trade price falls to their stop price. */
  private triggerStops(state: MarketState, lastPrice: bigint): void {
    while (state.stops.length > 0 && state.stops[0]!.stopPrice! >= lastPrice) {
      const stop = state.stops.shift()!;
      stop.isTriggered = true;
      this.submitted.push(stop);
      this.changed(stop);
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
      this.dirtyOrders.delete(order);
      this.forgotten.add(order.id);
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
      this.dirtyOrders.add(order);
    }
    return order;
  }

  /** Takes an order out of wherever it waits: the book, the stop list or the submitted queue. */
  private withdraw(order: EngineOrder): void {
    const state = this.marketState(order.market);
    (order.side === "BUY" ? state.bids : state.asks).remove(order.id);
    const stopIndex = state.stops.indexOf(order);
    if (stopIndex >= 0) state.stops.splice(stopIndex, 1);
    const queued = this.submitted.indexOf(order);
    if (queued >= 0) this.submitted.splice(queued, 1);
  }

  // ---- internal transfers ---------------------------------------------------------------

  /**
   * Moves the amount at once (no money is ever in limbo) and records a DEBIT and a CREDIT
   * leg sharing a group_id; both stay PENDING until `advance` passes their settle time.
   */
  createInternalTransfer(customerId: string, request: CreateInternalTransferRequest): EngineTransfer {
    this.profileOf(customerId, request.from_profile_id);
    this.profileOf(customerId, request.to_profile_id);
    const refKey = request.ref_id ? `${customerId}\u0000${request.ref_id}` : undefined;
    if (refKey && this.transferRefs.has(refKey)) {
      const existing = this.transfers.get(this.transferRefs.get(refKey)!)!;
      throw problems.alreadyExists("Transfer with ref_id already exists", toTransferRecord(existing), "Already exists");
    }
    const units = parseAmount(request.amount);
    try {
      this.ledger.debit(request.from_profile_id, request.asset, units);
    } catch (error) {
      if (!(error instanceof InsufficientFunds)) throw error;
      const { available } = error;
      throw problems.insufficientFunds(
        request.from_profile_id,
        request.asset,
        formatTrimmed(available),
        formatTrimmed(units),
      );
    }
    this.ledger.credit(request.to_profile_id, request.asset, units);

    const now = this.now;
    const settleAt = now + (this.options.transferSettleMillis ?? 0);
    const groupId = this.options.newId();
    const leg = (profileId: string, direction: "DEBIT" | "CREDIT"): EngineTransfer => ({
      id: this.options.newId(),
      customerId,
      profileId,
      amount: formatTrimmed(units),
      asset: request.asset,
      direction,
      type: direction === "DEBIT" ? "INTERNAL_TRANSFER_DEBIT" : "INTERNAL_TRANSFER_CREDIT",
      status: "PENDING",
      createdAt: now,
      updatedAt: now,
      settleAt,
      groupId,
    });
    const debit: EngineTransfer = {
      ...leg(request.from_profile_id, "DEBIT"),
      refId: request.ref_id,
      metadata: request.metadata,
      identityId: request.from_identity_id,
      accountId: request.from_account_id,
    };
    const credit: EngineTransfer = {
      ...leg(request.to_profile_id, "CREDIT"),
      metadata: request.recipient_metadata,
      identityId: request.to_identity_id,
      accountId: request.to_account_id,
    };
    for (const t of [debit, credit]) this.saveTransfer(t);
    if (refKey) this.transferRefs.set(refKey, debit.id);
    return debit;
  }

  findTransferByRef(customerId: string, refId: string): EngineTransfer | undefined {
    return this.transfers.get(this.transferRefs.get(`${customerId}\u0000${refId}`) ?? "");
  }

  private saveTransfer(t: EngineTransfer): void {
    this.transfers.set(t.id, t);
    if (t.status === "PENDING") this.pendingTransfers.add(t);
    this.dirtyTransfers.add(t);
  }

  // ---- the clock ------------------------------------------------------------------------

  /** Expires GTT orders, carries out acknowledged cancels and settles transfers whose time has come. */
  advance(): void {
    const now = this.now;
    for (const order of [...this.cancelling]) {
      if (order.cancelAt! <= now) {
        this.withdraw(order);
        this.close(order, "CANCELLED");
      }
    }
    for (const order of [...this.expiring]) {
      if (order.expiresAt! <= now && !FINAL.has(order.status)) {
        this.withdraw(order);
        this.close(order, "CANCELLED");
      }
    }
    for (const t of [...this.pendingTransfers]) {
      if (t.settleAt !== null && t.settleAt <= now) {
        t.status = "COMPLETED";
        t.updatedAt = now;
        this.pendingTransfers.delete(t);
        this.dirtyTransfers.add(t);
      }
    }
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
    const changes: Changes = {
      profiles: [...this.dirtyProfiles],
      orders: [...this.dirtyOrders],
      forgottenOrders: [...this.forgotten],
      transfers: [...this.dirtyTransfers],
      balances: [...this.ledger.dirty].map((key) => {
        const [profileId, asset] = key.split("\u0000") as [string, string];
        const b = this.ledger.balance(profileId, asset);
        return { profileId, asset, available: b.available, trading: b.trading };
      }),
    };
    this.dirtyProfiles.clear();
    this.dirtyOrders.clear();
    this.forgotten.clear();
    this.dirtyTransfers.clear();
    this.ledger.dirty.clear();
    return changes;
  }

  /** Puts a stored open order back. Restore in `seq` order, then call `processSubmitted`. */
  restoreOrder(order: EngineOrder): void {
    this.orders.set(order.id, order);
    this.seq = Math.max(this.seq, order.seq);
    if (order.refId) this.orderRefs.set(`${order.customerId}\u0000${order.refId}`, order.id);
    if (FINAL.has(order.status)) return;
    if (order.expiresAt !== null) this.expiring.add(order);
    if (order.cancelAt !== undefined) this.cancelling.add(order);
    // Untriggered stops wait for a trade; everything else runs through matching again, in
    // arrival order, which rebuilds the book exactly and finishes what a crash interrupted.
    if (order.stopPrice !== null && !order.isTriggered) this.restStop(order, this.marketState(order.market));
    else this.submitted.push(order);
  }

  restoreTransfer(t: EngineTransfer): void {
    this.transfers.set(t.id, t);
    if (t.status === "PENDING") this.pendingTransfers.add(t);
    if (t.refId && t.direction === "DEBIT") this.transferRefs.set(`${t.customerId}\u0000${t.refId}`, t.id);
  }

  restoreTrade(market: Market, price: bigint, amount: bigint, at: number): void {
    this.marketState(market).stats.record(price, amount, mul(price, amount), at);
  }

  /** Clears what restoring marked dirty: it is already stored. */
  markClean(): void {
    this.drainChanges();
  }
}

/** The published service's largest order values, in the quote currency. */
const MAX_MARKET_NOTIONAL = parseAmount("500000");
const MAX_LIMIT_NOTIONAL = (market: Market) =>
  parseAmount(market === "BTCUSD" || market === "ETHUSD" ? "1500000" : "1000000");
/** "Taker orders will be rejected if price deviates 15% from midpoint." */
const BAND_PERCENT = 15n;

/**
 * What the service refuses before accepting an order: a notional past its cap (MARKET 500,000;
 * LIMIT 1,500,000 on BTCUSD and ETHUSD, 1,000,000 elsewhere) and a taker limit order priced more
 * than 15% from the mid. Both are 403 problems with the figures in `meta`.
 */
function checkServiceLimits(request: CreateOrderRequest, state: MarketState): void {
  const bid = state.bids.bestPrice();
  const marketLike = request.type === "MARKET" || request.type === "STOP_MARKET";
  const base = request.base_amount ? parseAmount(request.base_amount) : 0n;
  const priced = request.type === "STOP_MARKET" ? request.stop_price : request.price;
  const notional =
    request.type === "MARKET"
      ? request.side === "BUY"
        ? parseAmount(request.quote_amount!)
        : mul(base, bid ?? 0n)
      : mul(base, parseAmount(priced!));
  const cap = marketLike ? MAX_MARKET_NOTIONAL : MAX_LIMIT_NOTIONAL(request.market);
  if (notional > cap) {
    throw problems.notionalTooLarge(request.market, request.type, formatTrimmed(notional), formatTrimmed(cap));
  }
  checkPriceBand(request, state);
}

/**
 * The taker price band. The reference states it for limit orders, so it applies to a LIMIT order
 * (any time in force) that would take liquidity now, and looks at the order's OWN limit price,
 * however little of the book it would reach. A resting order, a post-only order (refused if it
 * crosses) and a stop (not yet a taker) are not banded; nor is a MARKET order: the reference
 * sets no price on it ("executes at best available price"), only its 500,000 cap.
 */
function checkPriceBand(request: CreateOrderRequest, state: MarketState): void {
  if (request.type !== "LIMIT") return;
  const buy = request.side === "BUY";
  const price = parseAmount(request.price!);
  const best = (buy ? state.asks : state.bids).bestPrice();
  const takes = best !== undefined && (buy ? best <= price : best >= price);
  if (!takes) return;
  const bid = state.bids.bestPrice();
  const ask = state.asks.bestPrice();
  // One side empty: the side the order takes from is the only price there is.
  const mid = bid !== undefined && ask !== undefined ? (bid + ask) / 2n : best;
  const band = (mid * BAND_PERCENT) / 100n;
  const [low, high] = [mid - band, mid + band];
  if (price >= low && price <= high) return;
  const deviation = divRound((price > mid ? price - mid : mid - price) * 100n, mid, 2);
  throw problems.priceBand({
    market: request.market,
    price: formatTrimmed(price),
    mid: formatTrimmed(mid),
    band_percent: `${BAND_PERCENT}`,
    deviation_percent: formatTrimmed(deviation),
    min_price: formatTrimmed(low),
    max_price: formatTrimmed(high),
  });
}
