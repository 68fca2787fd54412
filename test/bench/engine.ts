/**
 * In-process matching throughput of the sandbox engine, with exact decimals.
 *
 *   npm run bench:engine [-- <orders> [<seed>]]
 *
 * A seeded stream of limit orders around a drifting mid (most rest, some cross), a few
 * market orders and cancels is generated and validated before the clock starts; then
 * `submitOrder` + `processSubmitted` (or `cancelOrder`) runs for each, as the sandbox's
 * route handler does per request. A smaller warm-up run on its own exchange goes first.
 */
import {
  BASE_AMOUNT_SCALE,
  MARKET_DETAILS,
  createOrderRequestSchema,
  fromUnits,
  scaleOf,
  toUnits,
  type CreateOrderRequest,
  type Market,
} from "@/lib/spec";
import { parseAmount } from "@/lib/sandbox/engine/amounts";
import { Exchange } from "@/lib/sandbox/engine/exchange";
import { ProblemError } from "@/lib/spec";
import { TradeStats } from "@/lib/sandbox/engine/stats";
import { Prng } from "@/lib/sandbox/prng";

const T0 = 1_800_000_000_000;
const TRADERS = ["c1", "c2", "c3", "c4"].map((customer) => ({ customer, profile: `${customer}-main` }));
const DEPTH: Record<string, string> = {
  USD: "1000000000000",
  BTC: "10000000",
  ETH: "100000000",
  MATIC: "1000000000000",
};
const MARKETS: { market: Market; mid: string; weight: number; maxBase: bigint }[] = [
  { market: "BTCUSD", mid: "65000", weight: 50, maxBase: 2n * 10n ** 8n },
  { market: "ETHUSD", mid: "3200", weight: 35, maxBase: 30n * 10n ** 8n },
  { market: "MATICUSD", mid: "0.7", weight: 15, maxBase: 100_000n * 10n ** 8n },
];

type Op =
  { kind: "order"; trader: number; request: CreateOrderRequest } | { kind: "cancel"; trader: number; target: number };

/** The stream: ~60% resting limits, ~20% crossing limits, ~5% market orders, ~15% cancels. */
function generate(count: number, seed: string): Op[] {
  const prng = new Prng(`bench:${seed}`);
  const state = MARKETS.map((m) => {
    const tick = MARKET_DETAILS[m.market].tick_rate;
    const scale = scaleOf(tick);
    return { ...m, scale, tick: toUnits(tick, scale), mid: toUnits(m.mid, scale) };
  });
  const ops: Op[] = [];
  const orderOps: number[] = [];
  for (let i = 0; i < count; i++) {
    const trader = prng.int(0, TRADERS.length - 1);
    const roll = prng.int(1, 100);
    if (roll <= 15 && orderOps.length > 0) {
      // Cancel a recent order; many will already be filled (a refusal, timed too).
      const back = prng.int(1, Math.min(orderOps.length, 2000));
      const target = orderOps[orderOps.length - back]!;
      ops.push({ kind: "cancel", trader: (ops[target] as { trader: number }).trader, target });
      continue;
    }
    const pick = prng.int(1, 100);
    const m =
      pick <= state[0]!.weight ? state[0]! : pick <= state[0]!.weight + state[1]!.weight ? state[1]! : state[2]!;
    if (prng.chance(0.1)) m.mid += BigInt(prng.int(-1, 1)) * m.tick;
    const side = prng.chance(0.5) ? "BUY" : "SELL";
    const base = fromUnits(BigInt(prng.int(1, Number(m.maxBase))), BASE_AMOUNT_SCALE);
    const at = (ticks: number) => fromUnits(m.mid + BigInt(ticks) * m.tick, m.scale);
    let request: CreateOrderRequest;
    if (roll <= 20) {
      request =
        side === "BUY"
          ? { market: m.market, type: "MARKET", side, quote_amount: `${prng.int(10, 50_000)}.${prng.int(10, 99)}` }
          : { market: m.market, type: "MARKET", side, base_amount: base };
    } else {
      const crossing = roll > 80;
      const away = crossing ? -prng.int(0, 10) : prng.int(1, 50);
      const price = side === "BUY" ? at(-away) : at(away);
      const time_in_force = crossing && prng.chance(0.3) ? "IOC" : "GTC";
      request = { market: m.market, type: "LIMIT", side, price, base_amount: base, time_in_force };
    }
    orderOps.push(ops.length);
    ops.push({ kind: "order", trader, request });
  }
  return ops;
}

function fundedExchange(clock: { now: number }): Exchange {
  let ids = 0;
  const ex = new Exchange({ now: () => clock.now, newId: () => `o-${++ids}` });
  for (const { customer, profile } of TRADERS) {
    ex.addProfile({ id: profile, customerId: customer, nickname: profile, type: "DEFAULT" });
    for (const [asset, amount] of Object.entries(DEPTH)) ex.deposit(customer, profile, asset, amount);
  }
  ex.drainChanges();
  return ex;
}

let fills = 0;
const record = TradeStats.prototype.record;
TradeStats.prototype.record = function (...args: Parameters<typeof record>) {
  fills++;
  return record.apply(this, args);
};

function run(ops: Op[]) {
  const clock = { now: T0 };
  const ex = fundedExchange(clock);
  const ids: string[] = new Array(ops.length);
  let refused = 0;
  fills = 0;
  const started = performance.now();
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const { customer, profile } = TRADERS[op.trader]!;
    try {
      if (op.kind === "order") {
        ids[i] = ex.submitOrder(customer, profile, op.request).id;
        ex.processSubmitted();
      } else {
        ex.cancelOrder(customer, profile, ids[op.target] ?? "unknown");
      }
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      refused++;
    }
    // The store drains once per request in the sandbox; here in batches, to bound the sets.
    if ((i & 1023) === 1023) ex.drainChanges();
    if ((i & 255) === 255) clock.now += 1;
  }
  const millis = performance.now() - started;
  for (const asset of Object.keys(DEPTH)) {
    const expected = parseAmount(DEPTH[asset]!) * BigInt(TRADERS.length);
    if (ex.ledger.total(asset) !== expected) throw new Error(`${asset} is not conserved`);
  }
  const resting = MARKETS.map(({ market }) => {
    const book = ex.orderBook(market, Infinity);
    return `${market} ${book.bids.length}/${book.asks.length} levels`;
  });
  return { millis, fills, refused, resting };
}

const count = Number(process.argv[2] ?? 200_000);
const seed = process.argv[3] ?? "bench";
const schema = createOrderRequestSchema({ now: () => T0 });

const genStart = performance.now();
const warmup = generate(Math.min(50_000, count), `${seed}-warmup`);
const ops = generate(count, seed);
for (const op of [...warmup, ...ops]) if (op.kind === "order") schema.parse(op.request);
const orders = ops.filter((op) => op.kind === "order").length;
console.log(
  `generated and validated ${warmup.length + ops.length} ops in ${((performance.now() - genStart) / 1000).toFixed(1)} s`,
);

const w = run(warmup);
console.log(`warm-up: ${warmup.length} ops in ${w.millis.toFixed(0)} ms`);
const r = run(ops);
const seconds = r.millis / 1000;
console.log(
  [
    `ops:            ${ops.length} (${orders} orders, ${ops.length - orders} cancels; ${r.refused} refused)`,
    `fills:          ${r.fills}`,
    `total time:     ${r.millis.toFixed(0)} ms`,
    `throughput:     ${Math.round(ops.length / seconds)} ops/s (${Math.round(orders / seconds)} orders/s)`,
    `books at end:   ${r.resting.join(", ")}`,
    `node ${process.version}, heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MiB`,
  ].join("\n"),
);
