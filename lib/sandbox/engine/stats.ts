const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface Bucket {
  start: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  /** Sum of price * amount, for the volume-weighted average. */
  notional: bigint;
}

export interface Summary {
  open: bigint;
  high: bigint;
  low: bigint;
  volume: bigint;
  notional: bigint;
  begin: number;
  end: number;
}

/** One trade as GET /markets/{market}/recent-executions lists it. */
export interface Trade {
  /** Alphanumeric, as the service's are (matchNumberOf). */
  matchNumber: string;
  price: bigint;
  amount: bigint;
  at: number;
}

/**
 * A trade's match number: 12 upper-case base-36 characters of its time and a running count, so
 * it is unique across restarts (trades are not stored) and, like the service's, not a number a
 * client could sort numerically; compared as strings, later trades sort after earlier ones.
 */
export function matchNumberOf(at: number, count: number): string {
  return (BigInt(at) * 4096n + BigInt(count % 4096)).toString(36).toUpperCase().padStart(12, "0");
}

/** How many of a market's latest trades are kept for its recent executions. */
export const RECENT_TRADES = 200;

/**
 * A market's trades in one-minute buckets over the last day, for its ticker, and its latest
 * trades one by one, for its recent executions.
 */
export class TradeStats {
  private buckets: Bucket[] = [];
  private trades: Trade[] = [];
  private count = 0;
  last: { price: bigint; amount: bigint; at: number } | null = null;

  /** The latest trades, oldest first. */
  get recent(): readonly Trade[] {
    return this.trades;
  }

  record(price: bigint, amount: bigint, notional: bigint, at: number): void {
    this.last = { price, amount, at };
    this.trades.push({ matchNumber: matchNumberOf(at, this.count++), price, amount, at });
    if (this.trades.length > RECENT_TRADES) this.trades.shift();
    const start = at - (at % MINUTE);
    let b = this.buckets[this.buckets.length - 1];
    if (!b || b.start !== start) {
      b = { start, open: price, high: price, low: price, close: price, volume: 0n, notional: 0n };
      this.buckets.push(b);
      while (this.buckets.length > 0 && this.buckets[0]!.start <= at - DAY) this.buckets.shift();
    }
    if (price > b.high) b.high = price;
    if (price < b.low) b.low = price;
    b.close = price;
    b.volume += amount;
    b.notional += notional;
  }

  /** Trades from `begin` (inclusive) to `end`, or null when there were none. */
  summary(begin: number, end: number): Summary | null {
    const inRange = this.buckets.filter((b) => b.start + MINUTE > begin && b.start <= end);
    const first = inRange[0];
    if (!first) return null;
    const s: Summary = { open: first.open, high: first.high, low: first.low, volume: 0n, notional: 0n, begin, end };
    for (const b of inRange) {
      if (b.high > s.high) s.high = b.high;
      if (b.low < s.low) s.low = b.low;
      s.volume += b.volume;
      s.notional += b.notional;
    }
    return s;
  }
}

export const startOfUtcDay = (ms: number): number => ms - (ms % DAY);
export { DAY };
