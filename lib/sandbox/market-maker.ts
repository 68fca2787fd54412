import {
  BASE_AMOUNT_SCALE,
  FINAL_ORDER_STATUSES,
  MARKETS,
  MARKET_DETAILS,
  QUOTE_AMOUNT_SCALE,
  createOrderRequestSchema,
  scaleOf,
  type CreateOrderRequest,
  type Market,
  type OrderSide,
} from "@/lib/spec";
import { SCALE, divDown, formatFixed, formatTrimmed, mul, parseAmount } from "./engine/amounts";
import { ProblemError } from "@/lib/spec";
import type { Exchange } from "./engine/exchange";
import { Prng } from "./prng";
import {
  FLOW_TRADER_CUSTOMER_ID,
  FLOW_TRADER_PROFILE_ID,
  MARKET_MAKER_CUSTOMER_ID,
  MARKET_MAKER_PROFILE_ID,
} from "./seed";

/** Where each base asset starts, in USD; EUR and SGD markets convert at FX. */
const USD_START: Readonly<Record<string, string>> = {
  BTC: "65000",
  ETH: "3200",
  GOLD: "2400",
  BCH: "350",
  LTC: "85",
  USDP: "1.00",
  LINK: "15",
  MATIC: "0.70",
  AAVE: "95",
  UNI: "8",
};
const FX: Readonly<Record<string, string>> = { USD: "1", EUR: "0.92", SGD: "1.35" };
/** Per-step standard deviation of each asset's walk, in basis points; USDP holds its peg. */
const VOLATILITY_BPS: Readonly<Record<string, number>> = {
  BTC: 2.5,
  ETH: 3,
  GOLD: 0.8,
  BCH: 3.5,
  LTC: 3.5,
  USDP: 0,
  LINK: 4,
  MATIC: 4.5,
  AAVE: 4,
  UNI: 4,
};

/** Relative amounts in parts per million of the price. */
const HALF_SPREAD_PPM = 150n;
const LEVEL_STEP_PPM = 250n;
/** Pull back toward the starting price, per step, so a long demo stays realistic. */
const REVERSION_PPM = 100n;
const PPM = 1_000_000n;
/** The walk's move is picked as an integer count of 1e-7 (a thousandth of a basis point). */
const MOVE_UNITS = 10_000_000n;

/** Quote size per level, in USD before the random size jitter: deeper levels are larger. */
const LEVEL_NOTIONAL_USD = parseAmount("20000");
const LEVEL_SIZE_PERCENT = [100, 150, 200, 300, 400, 600, 800, 1000];
const FLOW_NOTIONAL_USD = { min: 500, max: 25_000 };

const FINAL = new Set(FINAL_ORDER_STATUSES);

export interface MarketMakerOptions {
  /** Seed of the price walk, the quote sizes and the flow trader's orders. */
  seed: string;
  /** Quote levels per side (default 6). */
  levels?: number;
  /** Chance per market per step that the flow trader sends a market order (default 0.35). */
  flowProbability?: number;
  /** Check every request against `createOrderRequestSchema` before sending it (default true). */
  validate?: boolean;
  maker?: { customerId: string; profileId: string };
  flowTrader?: { customerId: string; profileId: string };
}

interface Walk {
  anchor: bigint;
  usd: bigint;
  volatilityBps: number;
}

interface Quoting {
  market: Market;
  base: string;
  tick: bigint;
  tickScale: number;
  fx: bigint;
  /** Reference price on the market's tick. */
  reference: bigint;
  /** -1, 0 or 1: how the reference moved in the last step (the flow trader follows it). */
  trend: number;
  quoteIds: string[];
}

const roundToTick = (units: bigint, tick: bigint): bigint => ((units + tick / 2n) / tick) * tick;
const clamp = (v: bigint, lo: bigint, hi: bigint): bigint => (v < lo ? lo : v > hi ? hi : v);

/**
 * The sandbox's liquidity: every step moves each asset's reference price by a seeded random
 * walk, replaces the maker's two-sided ladder of LIMIT GTC quotes around it, and lets a flow
 * trader send small MARKET orders so the last price follows the reference and stops trigger.
 * Money is scaled bigint throughout; the PRNG only picks counts (ticks, percentages, moves).
 */
export class MarketMaker {
  private readonly prng: Prng;
  private readonly levels: number;
  private readonly flowProbability: number;
  private readonly maker: { customerId: string; profileId: string };
  private readonly flow: { customerId: string; profileId: string };
  private readonly schema: ReturnType<typeof createOrderRequestSchema> | null;
  private readonly walks = new Map<string, Walk>();
  private readonly quoting: Quoting[];
  private adopted = false;

  constructor(
    private readonly exchange: Exchange,
    options: MarketMakerOptions,
  ) {
    this.prng = new Prng(`market-maker:${options.seed}`);
    this.levels = options.levels ?? 6;
    this.flowProbability = options.flowProbability ?? 0.35;
    this.maker = options.maker ?? { customerId: MARKET_MAKER_CUSTOMER_ID, profileId: MARKET_MAKER_PROFILE_ID };
    this.flow = options.flowTrader ?? { customerId: FLOW_TRADER_CUSTOMER_ID, profileId: FLOW_TRADER_PROFILE_ID };
    this.schema = options.validate === false ? null : createOrderRequestSchema();
    this.quoting = MARKETS.map((market) => {
      const { base_asset: base, quote_asset: quote, tick_rate } = MARKET_DETAILS[market];
      if (!this.walks.has(base)) this.walks.set(base, this.startWalk(base));
      const quoting: Quoting = {
        market,
        base,
        tick: parseAmount(tick_rate),
        tickScale: scaleOf(tick_rate),
        fx: parseAmount(FX[quote] ?? "1"),
        reference: 0n,
        trend: 0,
        quoteIds: [],
      };
      quoting.reference = this.referenceOf(quoting);
      return quoting;
    });
  }

  /**
   * Starts at the USD market's last trade, so a restart continues the chart; a pegged asset
   * (no volatility) and a market without trades start at USD_START.
   */
  private startWalk(base: string): Walk {
    const start = USD_START[base];
    if (start === undefined) throw new Error(`no starting price for ${base}`);
    const anchor = parseAmount(start);
    const volatilityBps = VOLATILITY_BPS[base] ?? 3;
    const usdMarket = MARKETS.find((m) => m === `${base}USD`);
    const last = usdMarket && volatilityBps > 0 ? this.exchange.tradeStats(usdMarket).last?.price : undefined;
    const usd = last === undefined ? anchor : clamp(last, anchor / 2n, anchor * 2n);
    return { anchor, usd, volatilityBps };
  }

  /** The market's reference price now, as a decimal string on its tick. */
  referencePrice(market: Market): string {
    const q = this.quoting.find((x) => x.market === market)!;
    return formatFixed(q.reference, q.tickScale);
  }

  /**
   * One tick of the simulated market. Matches the fresh quotes itself (a market order is
   * refused while the opposite book is empty) and leaves the flow trader's orders submitted
   * for the caller's `processSubmitted`.
   */
  step(): void {
    if (!this.adopted) this.cancelStaleQuotes();
    for (const walk of this.walks.values()) this.move(walk);
    for (const q of this.quoting) {
      const reference = this.referenceOf(q);
      q.trend = reference > q.reference ? 1 : reference < q.reference ? -1 : 0;
      q.reference = reference;
      this.requote(q);
    }
    this.exchange.processSubmitted();
    for (const q of this.quoting) {
      if (this.prng.chance(this.flowProbability)) this.sendFlow(q);
    }
  }

  private move(walk: Walk): void {
    const move = BigInt(Math.round(this.prng.gaussian() * walk.volatilityBps * 1000));
    const reversion = ((walk.anchor - walk.usd) * REVERSION_PPM) / PPM;
    walk.usd = clamp(walk.usd + (walk.usd * move) / MOVE_UNITS + reversion, walk.anchor / 10n, walk.anchor * 10n);
  }

  /** The walk converted to the market's quote asset, on its tick, kept clear of zero. */
  private referenceOf(q: Quoting): bigint {
    const price = roundToTick(mul(this.walks.get(q.base)!.usd, q.fx), q.tick);
    const floor = q.tick * BigInt(4 * this.levels + 10);
    return price > floor ? price : floor;
  }

  /** Maker quotes left open by an earlier process (restored from the store) are replaced. */
  private cancelStaleQuotes(): void {
    this.adopted = true;
    for (const order of this.exchange.orders.values()) {
      if (order.profileId === this.maker.profileId && !FINAL.has(order.status)) this.cancel(order.id);
    }
  }

  private cancel(orderId: string): void {
    const order = this.exchange.orders.get(orderId);
    if (!order || FINAL.has(order.status)) return;
    try {
      this.exchange.cancelOrder(this.maker.customerId, this.maker.profileId, orderId);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
    }
  }

  /** True while every quote of the last ladder rests untouched. */
  private intact(q: Quoting): boolean {
    return (
      q.quoteIds.length > 0 &&
      q.quoteIds.every((id) => {
        const order = this.exchange.orders.get(id);
        return order?.status === "OPEN" && order.filledBase === 0n;
      })
    );
  }

  private requote(q: Quoting): void {
    // A quiet market whose ladder still stands keeps it: less churn for the store.
    if (q.trend === 0 && this.intact(q)) return;
    for (const id of q.quoteIds) this.cancel(id);
    q.quoteIds = [];
    const tick = q.tick;
    const atLeastOneTick = (ppm: bigint) => {
      const ticks = (q.reference * ppm) / PPM / tick;
      return ticks > 0n ? ticks : 1n;
    };
    const half = atLeastOneTick(HALF_SPREAD_PPM);
    const step = atLeastOneTick(LEVEL_STEP_PPM);
    for (let level = 0; level < this.levels; level++) {
      const offset = (half + BigInt(level) * step) * tick;
      const percent = LEVEL_SIZE_PERCENT[Math.min(level, LEVEL_SIZE_PERCENT.length - 1)]!;
      for (const side of ["BUY", "SELL"] as const) {
        const jitter = this.prng.int(75, 125);
        const price = side === "BUY" ? q.reference - offset : q.reference + offset;
        const notional = (mul(LEVEL_NOTIONAL_USD, q.fx) * BigInt(percent * jitter)) / 10_000n;
        if (price <= 0n) continue;
        const base = divDown(notional, price, BASE_AMOUNT_SCALE);
        if (base === 0n) continue;
        const id = this.submit(this.maker, {
          market: q.market,
          type: "LIMIT",
          side,
          time_in_force: "GTC",
          price: formatFixed(price, q.tickScale),
          base_amount: formatTrimmed(base),
        });
        if (id) q.quoteIds.push(id);
      }
    }
  }

  /** A small market order from the flow trader, leaning the way the price moved. */
  private sendFlow(q: Quoting): void {
    const buyChance = 0.5 + 0.2 * q.trend;
    const side: OrderSide = this.prng.chance(buyChance) ? "BUY" : "SELL";
    const usd = BigInt(this.prng.int(FLOW_NOTIONAL_USD.min, FLOW_NOTIONAL_USD.max)) * 10n ** BigInt(SCALE);
    const notional = mul(usd, q.fx);
    if (side === "BUY") {
      const step = 10n ** BigInt(SCALE - QUOTE_AMOUNT_SCALE);
      const quote = (notional / step) * step;
      if (quote > 0n) {
        this.submit(this.flow, {
          market: q.market,
          type: "MARKET",
          side,
          quote_amount: formatFixed(quote, QUOTE_AMOUNT_SCALE),
        });
      }
      return;
    }
    const base = divDown(notional, q.reference, BASE_AMOUNT_SCALE);
    if (base > 0n) this.submit(this.flow, { market: q.market, type: "MARKET", side, base_amount: formatTrimmed(base) });
  }

  /** Submits one order; a refusal (insufficient funds, an empty book) skips just this order. */
  private submit(who: { customerId: string; profileId: string }, request: CreateOrderRequest): string | null {
    const checked = this.schema ? this.schema.parse(request) : request;
    try {
      return this.exchange.submitOrder(who.customerId, who.profileId, checked).id;
    } catch (error) {
      if (error instanceof ProblemError) return null;
      throw error;
    }
  }
}
