import fc from "fast-check";
import { describe, it } from "vitest";
import {
  FINAL_ORDER_STATUSES,
  MARKET_DETAILS,
  createInternalTransferRequestSchema,
  createOrderRequestSchema,
  fromUnits,
  toUnits,
  type Market,
} from "@/lib/spec";
import { mul, parseAmount } from "@/lib/sandbox/engine/amounts";
import { Exchange } from "@/lib/sandbox/engine/exchange";
import { ProblemError } from "@/lib/spec";
import { ORDER_KINDS, validTimesInForce } from "../../support/order-spec";
import { T0 } from "./harness";

/**
 * Random sessions, across five profiles of three customers, of deposits, orders of every type, side and time in force, cancels
 * (acknowledged and carried out later, a fill in between winning, or at once),
 * internal transfers, clock moves and matching, checked after every command: no balance
 * goes negative, each asset's total equals its deposits (fees are zero), and what open
 * orders hold is exactly what the ledger has in `trading`.
 */

const PROFILES = [
  { id: "p1", customer: "c1" },
  { id: "p2", customer: "c1" },
  { id: "p3", customer: "c2" },
  { id: "p4", customer: "c2" },
  { id: "p5", customer: "c3" },
] as const;
const MARKETS_UNDER_TEST = ["ETHUSD", "BTCUSD", "MATICUSD"] as const satisfies readonly Market[];
const MID: Record<(typeof MARKETS_UNDER_TEST)[number], string> = { ETHUSD: "2000", BTCUSD: "60000", MATICUSD: "0.7" };
const ASSETS = ["USD", "ETH", "BTC", "MATIC"] as const;
const OPENING: Record<(typeof ASSETS)[number], string> = { USD: "1000000", ETH: "100", BTC: "5", MATIC: "100000" };
const FINAL = new Set(FINAL_ORDER_STATUSES);

const units = (max: bigint, scale: number) =>
  fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max })).map((n) => fromUnits(n, scale));

/** null seven times in eight. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

const orderCommand = fc.record({
  kind: fc.constant("order" as const),
  profile: fc.nat({ max: PROFILES.length - 1 }),
  market: fc.constantFrom(...MARKETS_UNDER_TEST),
  /** Type, side and quantities from the spec's table, not from lib/spec's rule functions. */
  order: fc.constantFrom(...ORDER_KINDS),
  tifPick: fc.nat(),
  priceTicks: fc.integer({ min: -40, max: 40 }),
  stopTicks: fc.integer({ min: -40, max: 40 }),
  base_amount: units(5n * 10n ** 8n, 8),
  quote_amount: units(2n * 10n ** 7n, 2),
  gttLead: fc.integer({ min: 10_001, max: 120_000 }),
  smp: fc.boolean(),
  /** Mostly none; sometimes another profile of the same customer; rarely a stranger's (404). */
  recipient: fc.constantFrom("none", "none", "none", "none", "sibling", "sibling", "stranger"),
  ref_id: sometimes(fc.constantFrom("r1", "r2", "r3")),
  /** The runtime matches right after accepting; sometimes orders queue up first. */
  thenProcess: fc.boolean(),
});

const command = fc.oneof(
  { weight: 8, arbitrary: orderCommand },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("process" as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("cancel" as const),
      pick: fc.nat(),
      /** Now and then asked through another profile, which must be refused. */
      through: sometimes(fc.nat({ max: PROFILES.length - 1 })),
      /** Mostly as the service answers one (acknowledged, settled later); else at once (the house's). */
      acknowledged: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      profile: fc.nat({ max: PROFILES.length - 1 }),
      asset: fc.constantFrom(...ASSETS),
      amount: units(10n ** 24n, 18),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("transfer" as const),
      from: fc.nat({ max: PROFILES.length - 1 }),
      /** Another profile of the same customer, else a stranger's (404). */
      to: sometimes(fc.nat({ max: PROFILES.length - 1 })),
      asset: fc.constantFrom(...ASSETS),
      amount: units(10n ** 23n, 18),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("advance" as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 30_000 }), fc.constant(25 * 3600_000)),
    }),
  },
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;
type OrderCommand = Extract<Command, { kind: "order" }>;

type SessionProfile = (typeof PROFILES)[number];
const siblingOf = (p: SessionProfile): SessionProfile =>
  PROFILES.find((q) => q.customer === p.customer && q.id !== p.id) ?? p;

function fail(message: string): never {
  throw new Error(message);
}

function session() {
  const clock = { now: T0 };
  let ids = 0;
  const ex = new Exchange({
    now: () => clock.now,
    newId: () => `id-${++ids}`,
    transferSettleMillis: 1000,
    cancelSettleMillis: 500,
  });
  const orderSchema = createOrderRequestSchema({ now: () => clock.now });
  const deposited = new Map<string, bigint>();
  const orderIds: { id: string; profile: number }[] = [];
  /** The clock's time at the last `advance`. */
  let advancedTo = clock.now;

  const deposit = (profile: number, asset: string, amount: string) => {
    const { id, customer } = PROFILES[profile]!;
    ex.deposit(customer, id, asset, amount);
    deposited.set(asset, (deposited.get(asset) ?? 0n) + parseAmount(amount));
  };
  PROFILES.forEach(({ id, customer }, i) => {
    ex.addProfile({ id, customerId: customer, nickname: id, type: "NORMAL" });
    for (const asset of ASSETS) deposit(i, asset, OPENING[asset]);
  });

  /** A request built to the service's rules: the schema must accept it. */
  function orderRequest(c: OrderCommand): Record<string, unknown> {
    const { type, side, required } = c.order;
    const tick = MARKET_DETAILS[c.market].tick_rate;
    const scale = tick.split(".")[1]?.length ?? 0;
    const tickUnits = toUnits(tick, scale);
    const at = (ticks: number) => fromUnits(toUnits(MID[c.market], scale) + BigInt(ticks) * tickUnits, scale);
    const quantities: Record<string, string> = {
      price: at(c.priceTicks),
      stop_price: at(c.stopTicks),
      base_amount: c.base_amount,
      quote_amount: c.quote_amount,
    };
    const valid = validTimesInForce(type);
    const tif = valid[c.tifPick % valid.length]!;
    const request: Record<string, unknown> = { market: c.market, type, side, time_in_force: tif };
    for (const f of required) request[f] = quantities[f];
    if (tif === "GTT") request.expiration_date = String(clock.now + c.gttLead);
    if (c.smp) request.self_match_prevention_id = "desk-1";
    const owner = PROFILES[c.profile]!;
    const stranger = PROFILES.find((p) => p.customer !== owner.customer)!;
    if (c.recipient !== "none")
      request.recipient_profile_id = (c.recipient === "sibling" ? siblingOf(owner) : stranger).id;
    if (c.ref_id !== null) request.ref_id = c.ref_id;
    return request;
  }

  function run(c: Command): void {
    switch (c.kind) {
      case "order": {
        const parsed = orderSchema.safeParse(orderRequest(c));
        if (!parsed.success) throw new Error(`generated an invalid order: ${JSON.stringify(parsed.error.issues)}`);
        const { id, customer } = PROFILES[c.profile]!;
        orderIds.push({ id: ex.submitOrder(customer, id, parsed.data).id, profile: c.profile });
        if (c.thenProcess) ex.processSubmitted();
        return;
      }
      case "process":
        return ex.processSubmitted();
      case "cancel": {
        const order = orderIds[c.pick % Math.max(orderIds.length, 1)];
        if (!order) return;
        const { id, customer } = PROFILES[c.through ?? order.profile]!;
        if (c.acknowledged) ex.requestCancel(customer, id, order.id);
        else ex.cancelOrder(customer, id, order.id);
        return;
      }
      case "deposit":
        return deposit(c.profile, c.asset, c.amount);
      case "transfer": {
        const from = PROFILES[c.from]!;
        const to = c.to === null ? siblingOf(from) : PROFILES[c.to]!;
        if (to.id === from.id) return;
        const request = createInternalTransferRequestSchema.parse({
          from_profile_id: from.id,
          to_profile_id: to.id,
          asset: c.asset,
          amount: c.amount,
        });
        ex.createInternalTransfer(PROFILES[c.from]!.customer, request);
        return;
      }
      case "advance":
        clock.now += c.ms;
        advancedTo = clock.now;
        return ex.advance();
    }
  }

  /** Runs one command; a refusal of the service is an answer, anything else is a failure. */
  function apply(c: Command): void {
    try {
      run(c);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
    }
  }

  /** Plain checks, not `expect`: they run after every command of every run. */
  function check(): void {
    const held = new Map<string, bigint>();
    for (const o of ex.orders.values()) {
      if (o.held < 0n) fail(`order ${o.id} holds ${o.held}`);
      if (FINAL.has(o.status)) {
        if (o.held !== 0n) fail(`${o.status} order ${o.id} still holds ${o.held}`);
        continue;
      }
      // The clock carries out every acknowledged cancel whose time has come.
      if (o.cancelAt !== undefined && o.cancelAt <= advancedTo) fail(`${o.id} still ${o.status} after its cancel`);
      const key = `${o.profileId} ${o.holdAsset}`;
      held.set(key, (held.get(key) ?? 0n) + o.held);
      // What is left to settle is covered by what the order still holds.
      const covered =
        o.side === "SELL"
          ? o.held === o.open
          : o.quoteAmount !== null
            ? o.held === o.quoteAmount - o.filledQuote
            : o.held >= mul(o.price, o.open);
      if (!covered) fail(`${o.side} ${o.type} ${o.id} holds ${o.held} for ${o.open} open`);
    }
    for (const { profileId, asset, balance } of ex.ledger.all()) {
      if (balance.available < 0n || balance.trading < 0n)
        fail(`${profileId} ${asset} negative: ${balance.available} available, ${balance.trading} trading`);
      const key = `${profileId} ${asset}`;
      if (balance.trading !== (held.get(key) ?? 0n)) {
        fail(`${key}: trading ${balance.trading} but open orders hold ${held.get(key) ?? 0n}`);
      }
      held.delete(key);
    }
    for (const [key, amount] of held) if (amount !== 0n) fail(`${key}: open orders hold ${amount} off the ledger`);
    for (const [asset, amount] of deposited) {
      const total = ex.ledger.total(asset);
      if (total !== amount) fail(`${asset}: total ${total} but ${amount} deposited`);
    }
    for (const market of MARKETS_UNDER_TEST) {
      const { bids, asks } = ex.orderBook(market, 1);
      if (bids[0] && asks[0] && bids[0].price >= asks[0].price) fail(`${market} book crossed`);
    }
  }

  return { ex, apply, check };
}

describe("ledger under random sessions", () => {
  it("never makes a balance negative, conserves every asset, and holds exactly what open orders need", () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 60, size: "max" }), (commands) => {
        const s = session();
        s.check();
        for (const c of commands) {
          s.apply(c);
          s.check();
        }
        // And once everything submitted has been matched.
        s.apply({ kind: "process" });
        s.check();
      }),
      { numRuns: 500 },
    );
  }, 60_000);
});
