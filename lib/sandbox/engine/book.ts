import type { OrderSide } from "@/lib/spec";

/** What the book needs to know of a resting order. */
export interface Resting {
  id: string;
  seq: number;
  price: bigint;
  /** Base amount still open. */
  open: bigint;
}

interface Level<T extends Resting> {
  price: bigint;
  /** FIFO by arrival; `head` skips removed entries without shifting the array. */
  queue: (T | undefined)[];
  head: number;
  live: number;
}

/**
 * One side of a market: price levels kept sorted best-first, each a FIFO queue
 * (price-time priority), with an id index so a cancel is O(level) not O(book).
 */
export class BookSide<T extends Resting> {
  private levels: Level<T>[] = [];
  private byPrice = new Map<bigint, Level<T>>();
  private slot = new Map<string, { level: Level<T>; index: number }>();

  constructor(readonly side: OrderSide) {}

  /** True when `a` is a better price than `b` for this side. */
  private better(a: bigint, b: bigint): boolean {
    return this.side === "BUY" ? a > b : a < b;
  }

  add(order: T): void {
    let level = this.byPrice.get(order.price);
    if (!level) {
      level = { price: order.price, queue: [], head: 0, live: 0 };
      this.byPrice.set(order.price, level);
      this.levels.splice(this.insertionIndex(order.price), 0, level);
    }
    this.slot.set(order.id, { level, index: level.queue.length });
    level.queue.push(order);
    level.live++;
  }

  private insertionIndex(price: bigint): number {
    let lo = 0;
    let hi = this.levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better(this.levels[mid]!.price, price)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  remove(id: string): boolean {
    const at = this.slot.get(id);
    if (!at) return false;
    this.slot.delete(id);
    const { level, index } = at;
    level.queue[index] = undefined;
    level.live--;
    while (level.head < level.queue.length && level.queue[level.head] === undefined) level.head++;
    if (level.live === 0) this.dropLevel(level);
    else if (level.head > 64 && level.head * 2 > level.queue.length) this.compact(level);
    return true;
  }

  /** Drops the holes of a long-lived level so its queue does not grow without bound. */
  private compact(level: Level<T>): void {
    level.queue = level.queue.filter((o): o is T => o !== undefined);
    level.head = 0;
    level.queue.forEach((o, index) => this.slot.set(o!.id, { level, index }));
  }

  private dropLevel(level: Level<T>): void {
    this.byPrice.delete(level.price);
    const i = this.levels.indexOf(level);
    if (i >= 0) this.levels.splice(i, 1);
  }

  has(id: string): boolean {
    return this.slot.has(id);
  }

  /** The first order in time at the best price. */
  best(): T | undefined {
    const level = this.levels[0];
    return level ? level.queue[level.head] : undefined;
  }

  bestPrice(): bigint | undefined {
    return this.levels[0]?.price;
  }

  /** Orders in priority order (best price, then arrival), for a fill-or-kill dry run. */
  *inPriority(): Generator<T> {
    for (const level of this.levels) {
      for (let i = level.head; i < level.queue.length; i++) {
        const order = level.queue[i];
        if (order) yield order;
      }
    }
  }

  /** Aggregated depth, best first. */
  depth(limit = Infinity): { price: bigint; amount: bigint }[] {
    return this.levels.slice(0, limit).map((level) => {
      let amount = 0n;
      for (let i = level.head; i < level.queue.length; i++) amount += level.queue[i]?.open ?? 0n;
      return { price: level.price, amount };
    });
  }

  get size(): number {
    return this.slot.size;
  }
}
