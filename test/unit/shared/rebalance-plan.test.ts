import DecimalJs from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  planRebalance,
  type RebalanceBalance,
  type RebalancePlan,
  type RebalanceTarget,
} from "@/lib/shared/rebalance-plan";

// The checks' own arithmetic (decimal.js, not the module's bigints), wide enough to stay exact.
const Decimal = DecimalJs.clone({ precision: 80 });
type Dec = InstanceType<typeof Decimal>;

const usd = (profile_id: string, available: string): RebalanceBalance => ({ profile_id, asset: "USD", available });
const aim = (profile_id: string, target: string, band = "0", asset = "USD"): RebalanceTarget => ({
  profile_id,
  asset,
  target,
  band,
});
const move = (from_profile_id: string, to_profile_id: string, amount: string, asset = "USD") => ({
  from_profile_id,
  to_profile_id,
  asset,
  amount,
});

describe("planRebalance", () => {
  it("brings a profile below its band up to its target from another's excess", () => {
    const plan = planRebalance([usd("a", "1000"), usd("b", "100")], [aim("a", "500"), aim("b", "400", "50")]);
    expect(plan).toEqual({ transfers: [move("a", "b", "300")], short: [] });
  });

  it("leaves a profile within its band, at its edge included, and one between its band and its target", () => {
    const balances = [usd("rich", "1000"), usd("edge", "350"), usd("inside", "399.99")];
    const targets = [aim("rich", "0"), aim("edge", "400", "50"), aim("inside", "400", "50")];
    expect(planRebalance(balances, targets)).toEqual({ transfers: [], short: [] });
    expect(
      planRebalance([usd("rich", "1000"), usd("edge", "349.99"), usd("inside", "399.99")], targets).transfers,
    ).toEqual([move("rich", "edge", "50.01")]);
  });

  it("never touches a profile without a target, however much it holds", () => {
    const plan = planRebalance([usd("whale", "1000000"), usd("b", "0")], [aim("b", "10")]);
    expect(plan).toEqual({ transfers: [], short: [{ profile_id: "b", asset: "USD", missing: "10" }] });
  });

  it("takes only a source's excess over its target, and a profile with no balance holds 0", () => {
    const plan = planRebalance([usd("a", "130.5")], [aim("a", "100"), aim("b", "50")]);
    expect(plan).toEqual({
      transfers: [move("a", "b", "30.5")],
      short: [{ profile_id: "b", asset: "USD", missing: "19.5" }],
    });
  });

  it("covers a deficit from the source of the same size, else from the smallest source that covers it", () => {
    const balances = [usd("big", "170"), usd("same", "150"), usd("fits", "160"), usd("d", "0")];
    const targets = [aim("big", "100"), aim("same", "100"), aim("fits", "100"), aim("d", "50")];
    expect(planRebalance(balances, targets).transfers).toEqual([move("same", "d", "50")]);
    const noExact = planRebalance(balances.slice(0, 1).concat(balances.slice(2)), [targets[0]!, ...targets.slice(2)]);
    expect(noExact.transfers).toEqual([move("fits", "d", "50")]);
  });

  it("covers the small deficits whole before it splits a large one, largest source first", () => {
    const balances = [usd("s50", "50"), usd("s45", "45"), usd("s60", "60"), usd("big", "0"), usd("small", "0")];
    const sources = [aim("s50", "0"), aim("s45", "0"), aim("s60", "0")];
    // 40 from the 45 (the smallest that covers it), then 100 from 60 and the 50.
    expect(planRebalance(balances, [...sources, aim("big", "100"), aim("small", "40")])).toEqual({
      transfers: [move("s45", "small", "40"), move("s50", "big", "40"), move("s60", "big", "60")],
      short: [],
    });
    // A split's remainder comes from the smallest source that covers it: 100 = 60 + 40 of the 45.
    expect(planRebalance(balances, [...sources, aim("big", "100")]).transfers).toEqual([
      move("s45", "big", "40"),
      move("s60", "big", "60"),
    ]);
  });

  it("reports what each profile still misses of its target when the excess runs out", () => {
    const plan = planRebalance(
      [usd("src", "100.000000001"), usd("x", "0"), usd("y", "0")],
      [aim("src", "10"), aim("x", "60"), aim("y", "45.5")],
    );
    expect(plan.short).toEqual([{ profile_id: "y", asset: "USD", missing: "15.499999999" }]);
    expect(plan.transfers).toEqual([move("src", "x", "60"), move("src", "y", "30.000000001")]);
  });

  it("plans each asset on its own, exactly at mixed scales, ordered by asset then profiles", () => {
    const balances = [
      { profile_id: "b", asset: "BTC", available: "0.00000001" },
      { profile_id: "a", asset: "BTC", available: "3" },
      usd("z", "0.1"),
      usd("a", "0.3"),
    ];
    const targets = [aim("a", "1", "0", "BTC"), aim("b", "1.5", "0.1", "BTC"), aim("z", "0.3"), aim("a", "0.1")];
    expect(planRebalance(balances, targets)).toEqual({
      transfers: [move("a", "b", "1.49999999", "BTC"), move("a", "z", "0.2")],
      short: [],
    });
  });

  it.each([
    ["a negative target", [aim("a", "-1")], []],
    ["a band written with a separator", [aim("a", "1", "1,000")], []],
    ["two targets for one profile and asset", [aim("a", "1"), aim("a", "2")], []],
    ["an available that is not a decimal", [aim("a", "1")], [usd("a", "lots")]],
  ])("throws on %s", (_, targets, balances) => {
    expect(() => planRebalance(balances, targets)).toThrow(RangeError);
  });
});

// ——— Properties, on seeded random desks ———

const PROFILES = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"];
const ASSETS = ["BTC", "ETH", "USD"];
const decimal = (max: bigint) =>
  fc.tuple(fc.bigInt({ min: 0n, max }), fc.integer({ min: 0, max: 8 })).map(([n, scale]) => {
    const digits = n.toString().padStart(scale + 1, "0");
    return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  });
/** A desk: some balances and some targets (some profiles with balances and no target, some the other way). */
const desk = fc
  .array(fc.tuple(fc.constantFrom(...PROFILES), fc.constantFrom(...ASSETS)), { maxLength: 20 })
  .chain((pairs) => {
    const keys = [...new Map(pairs.map((p) => [p.join(" "), p])).values()];
    const item = fc.record({
      available: fc.option(decimal(10n ** 12n), { nil: undefined }),
      target: fc.option(fc.tuple(decimal(10n ** 12n), decimal(10n ** 10n)), { nil: undefined }),
    });
    return fc.array(item, { minLength: keys.length, maxLength: keys.length }).map((items) => ({
      balances: keys.flatMap(([profile_id, asset], i) =>
        items[i]!.available === undefined ? [] : [{ profile_id, asset, available: items[i]!.available! }],
      ),
      targets: keys.flatMap(([profile_id, asset], i) =>
        items[i]!.target === undefined
          ? []
          : [{ profile_id, asset, target: items[i]!.target![0], band: items[i]!.target![1] }],
      ),
    }));
  });

interface Position {
  available: Dec;
  target?: Dec;
  band?: Dec;
}
function positions(balances: RebalanceBalance[], targets: RebalanceTarget[]) {
  const at = new Map<string, Position>();
  const key = (p: string, a: string) => `${p} ${a}`;
  for (const b of balances) at.set(key(b.profile_id, b.asset), { available: new Decimal(b.available) });
  for (const t of targets) {
    const held = at.get(key(t.profile_id, t.asset))?.available ?? new Decimal(0);
    at.set(key(t.profile_id, t.asset), { available: held, target: new Decimal(t.target), band: new Decimal(t.band) });
  }
  return (profile: string, asset: string) => at.get(key(profile, asset));
}

/** Every rule the plan must keep, checked against the desk with the test's own decimals. */
function expectSound(balances: RebalanceBalance[], targets: RebalanceTarget[], plan: RebalancePlan) {
  const position = positions(balances, targets);
  const net = new Map<string, Dec>();
  const add = (p: string, a: string, v: Dec) => net.set(`${p} ${a}`, (net.get(`${p} ${a}`) ?? new Decimal(0)).plus(v));
  const pairs = new Set<string>();
  for (const t of plan.transfers) {
    expect(new Decimal(t.amount).gt(0)).toBe(true);
    expect(position(t.from_profile_id, t.asset)?.target, "a sender without a target").toBeDefined();
    expect(position(t.to_profile_id, t.asset)?.target, "a receiver without a target").toBeDefined();
    pairs.add(`${t.from_profile_id} ${t.to_profile_id} ${t.asset}`);
    add(t.from_profile_id, t.asset, new Decimal(t.amount).neg());
    add(t.to_profile_id, t.asset, new Decimal(t.amount));
  }
  // One transfer at most between two profiles in an asset, and none sends and receives.
  expect(pairs.size).toBe(plan.transfers.length);
  const senders = new Set(plan.transfers.map((t) => `${t.from_profile_id} ${t.asset}`));
  expect(plan.transfers.some((t) => senders.has(`${t.to_profile_id} ${t.asset}`))).toBe(false);
  const after = (t: RebalanceTarget) =>
    position(t.profile_id, t.asset)!.available.plus(net.get(`${t.profile_id} ${t.asset}`) ?? 0);
  for (const asset of ASSETS)
    expectAssetSound(
      asset,
      targets.filter((t) => t.asset === asset),
      position,
      after,
      plan,
    );
}

/**
 * One asset: a deficit ends at its target, or short by exactly what it misses, and only once
 * the excess is spent; a source ends at or above its target; anyone else is untouched; and
 * no more transfers than deficits and sources.
 */
function expectAssetSound(
  asset: string,
  targets: RebalanceTarget[],
  position: ReturnType<typeof positions>,
  after: (t: RebalanceTarget) => Dec,
  plan: RebalancePlan,
) {
  const short = new Map(plan.short.filter((s) => s.asset === asset).map((s) => [s.profile_id, new Decimal(s.missing)]));
  let excessLeft = new Decimal(0);
  let parties = 0;
  for (const t of targets) {
    const { available, target, band } = position(t.profile_id, asset)!;
    const missing = short.get(t.profile_id);
    if (available.lt(target!.minus(band!))) {
      parties++;
      expect(
        after(t)
          .plus(missing ?? 0)
          .eq(target!),
        `${t.profile_id} ${asset} ends at its target or short of it`,
      ).toBe(true);
      if (missing) expect(missing.gt(0)).toBe(true);
    } else {
      expect(missing, `${t.profile_id} ${asset} is no deficit yet short`).toBeUndefined();
      if (available.gt(target!)) parties++;
      expect(after(t).gte(available.gt(target!) ? target! : available)).toBe(true);
      expect(after(t).lte(available)).toBe(true);
      excessLeft = excessLeft.plus(Decimal.max(0, after(t).minus(target!)));
    }
  }
  if (short.size > 0) expect(excessLeft.eq(0), `${asset}: a deficit is left while excess remains`).toBe(true);
  expect(plan.transfers.filter((t) => t.asset === asset).length).toBeLessThanOrEqual(parties);
}

const ordered = (plan: RebalancePlan) => {
  const key = (t: RebalancePlan["transfers"][number]) => [t.asset, t.from_profile_id, t.to_profile_id];
  const sorted = [...plan.transfers].sort((a, b) => (key(a).join("\0") < key(b).join("\0") ? -1 : 1));
  return plan.transfers.every((t, i) => t === sorted[i]);
};

describe("planRebalance, on random desks", () => {
  it("keeps every rule: sources stay at or above target, deficits never pass it, amounts add up, shorts exact", () => {
    fc.assert(
      fc.property(desk, ({ balances, targets }) => {
        expectSound(balances, targets, planRebalance(balances, targets));
      }),
      { seed: 2027, numRuns: 300 },
    );
  });

  it("answers the same plan, in asset then profile order, whatever order the desk is given in", () => {
    fc.assert(
      fc.property(desk, fc.integer(), ({ balances, targets }, salt) => {
        const plan = planRebalance(balances, targets);
        const shuffled = (xs: readonly unknown[]) =>
          [...xs]
            .map((x, i) => [((i + 1) * (salt | 1)) % 97, x] as const)
            .sort((a, b) => a[0] - b[0])
            .map(([, x]) => x);
        expect(planRebalance(shuffled(balances) as RebalanceBalance[], shuffled(targets) as RebalanceTarget[])).toEqual(
          plan,
        );
        expect(ordered(plan)).toBe(true);
      }),
      { seed: 2028, numRuns: 200 },
    );
  });

  it("makes one transfer per deficit when each deficit has a source able to cover it", () => {
    // Deficits paired with sources at least as large, beside untouched profiles and spare sources.
    const need = decimal(10n ** 9n).filter((d) => new Decimal(d).gt(0));
    const covered = fc
      .array(fc.tuple(need, decimal(10n ** 9n), decimal(10n ** 6n)), { minLength: 1, maxLength: 12 })
      .chain((pairs) =>
        fc.tuple(
          fc.constant(pairs),
          fc.array(decimal(10n ** 9n), { maxLength: 4 }),
          fc.array(decimal(10n ** 9n), { maxLength: 4 }),
        ),
      );
    fc.assert(
      fc.property(covered, ([pairs, spare, untouched]) => {
        const balances: RebalanceBalance[] = [];
        const targets: RebalanceTarget[] = [];
        pairs.forEach(([gap, extra, band], i) => {
          // The deficit sits below target - band; its source holds at least the whole gap above its own target.
          const target = new Decimal(gap).plus(band);
          targets.push(aim(`d${i}`, target.toFixed(), band), aim(`s${i}`, "1000"));
          balances.push(usd(`d${i}`, "0"), usd(`s${i}`, new Decimal(1000).plus(target).plus(extra).toFixed()));
        });
        spare.forEach(
          (v, i) => (
            balances.push(usd(`spare${i}`, new Decimal(5).plus(v).toFixed())),
            targets.push(aim(`spare${i}`, "5"))
          ),
        );
        untouched.forEach((v, i) => balances.push(usd(`none${i}`, v)));
        const plan = planRebalance(balances, targets);
        expect(plan.short).toEqual([]);
        expect(plan.transfers).toHaveLength(pairs.length);
        expect(new Set(plan.transfers.map((t) => t.to_profile_id)).size).toBe(pairs.length);
        expectSound(balances, targets, plan);
      }),
      { seed: 2029, numRuns: 200 },
    );
  });
});
