import { DECIMAL_PATTERN, fromUnits, scaleOf, toUnits, trimZeros } from "@/lib/spec/decimal";

/**
 * Rebalancing to target balances (issue 27): the internal transfers that bring every profile
 * with a target to within its band, taking only from the excess of profiles above their
 * targets and never drawing one below its own target. Pure: the page shows the plan, the
 * server sends it as a batch.
 *
 * Per asset, a profile with a target is
 * - short when `available < target - band`: it is brought up to its target, or as far as the
 *   others' excess allows (what is still missing to its target is reported);
 * - a source when `available > target`: it can give `available - target`, and no more;
 * - left alone otherwise. A profile without a target is never touched.
 *
 * The fewest transfers is NP-hard in general (it contains subset sum), so this is a greedy
 * heuristic, run on the deficits largest first (ties by profile id):
 * 1. a source whose excess equals a deficit exactly covers it (that source is then spent);
 * 2. else the smallest source that covers a deficit whole (keeping the big ones for the big deficits);
 * 3. what is left is split: the largest source first, until one source covers the remainder.
 * Passes 1 and 2 give each deficit one transfer whenever the sources, largest to largest,
 * could each cover one (every deficit matched with a source at least as large); pass 3 makes
 * each transfer either fill a deficit or empty a source, so never more than deficits +
 * sources transfers per asset. Amounts are scaled bigints throughout: exact, never a JS number.
 */

export interface RebalanceTarget {
  profile_id: string;
  asset: string;
  /** The balance wanted, a decimal string (0 or more). */
  target: string;
  /** How far below the target is still fine, a decimal string (0 or more). */
  band: string;
}

export interface RebalanceBalance {
  profile_id: string;
  asset: string;
  available: string;
}

export interface PlannedTransfer {
  from_profile_id: string;
  to_profile_id: string;
  asset: string;
  amount: string;
}

/** A profile still below its target after the plan, and by how much. */
export interface Shortfall {
  profile_id: string;
  asset: string;
  missing: string;
}

export interface RebalancePlan {
  /** Ordered by asset, then sending profile, then receiving profile (code point order). */
  transfers: PlannedTransfer[];
  /** Ordered by asset, then profile. */
  short: Shortfall[];
}

/** A profile's need or excess in one asset, in units of the asset's common scale; spent as the plan goes. */
interface Party {
  profile_id: string;
  units: bigint;
}
interface Move {
  from: string;
  to: string;
  units: bigint;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const SIGNED_DECIMAL = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;
const keyOf = (profileId: string, asset: string) => JSON.stringify([profileId, asset]);

/** Input the page or the server should have refused: a programming error, thrown. */
function assertInput(balances: readonly RebalanceBalance[], targets: readonly RebalanceTarget[]): void {
  const seen = new Set<string>();
  for (const t of targets) {
    const key = keyOf(t.profile_id, t.asset);
    if (seen.has(key)) throw new RangeError(`Two targets for ${t.profile_id} in ${t.asset}`);
    seen.add(key);
    for (const field of ["target", "band"] as const) {
      if (!DECIMAL_PATTERN.test(t[field]))
        throw new RangeError(`The ${field} ${t[field]} is not a decimal of 0 or more`);
    }
  }
  for (const b of balances) {
    if (!SIGNED_DECIMAL.test(b.available))
      throw new RangeError(`The available balance ${b.available} is not a decimal`);
  }
}

/** The smallest source that covers `need` whole (the first in profile order among equals), if any. */
function bestFit(sources: readonly Party[], need: bigint): Party | undefined {
  let best: Party | undefined;
  for (const s of sources) if (s.units >= need && (!best || s.units < best.units)) best = s;
  return best;
}

/** The largest source with anything left. */
function largest(sources: readonly Party[]): Party | undefined {
  let best: Party | undefined;
  for (const s of sources) if (s.units > 0n && (!best || s.units > best.units)) best = s;
  return best;
}

/** One asset's moves, and the deficits left open (in the order given): the three passes above. */
function planAsset(deficits: Party[], sources: Party[]): { moves: Move[]; open: Party[] } {
  const moves: Move[] = [];
  const move = (from: Party, to: Party, units: bigint) => {
    moves.push({ from: from.profile_id, to: to.profile_id, units });
    from.units -= units;
    to.units -= units;
  };
  const order = [...deficits].sort((a, b) => (a.units > b.units ? -1 : a.units < b.units ? 1 : 0));
  for (const d of order) {
    const exact = sources.find((s) => s.units === d.units);
    if (exact) move(exact, d, d.units);
  }
  for (const d of order.filter((d) => d.units > 0n)) {
    const fit = bestFit(sources, d.units);
    if (fit) move(fit, d, d.units);
  }
  for (const d of order) {
    for (let s = bestFit(sources, d.units) ?? largest(sources); d.units > 0n && s;) {
      move(s, d, s.units < d.units ? s.units : d.units);
      s = bestFit(sources, d.units) ?? largest(sources);
    }
  }
  return { moves, open: deficits.filter((d) => d.units > 0n) };
}

/** The targets of one asset as deficits and sources, at the asset's common scale (profile order). */
function partiesOf(targets: RebalanceTarget[], available: Map<string, string>) {
  const rows = targets
    .map((t) => ({ ...t, available: available.get(keyOf(t.profile_id, t.asset)) ?? "0" }))
    .sort((a, b) => byText(a.profile_id, b.profile_id));
  const scale = Math.max(0, ...rows.flatMap((r) => [r.target, r.band, r.available].map(scaleOf)));
  const deficits: Party[] = [];
  const sources: Party[] = [];
  for (const r of rows) {
    const [have, want, band] = [r.available, r.target, r.band].map((v) => toUnits(v, scale)) as [
      bigint,
      bigint,
      bigint,
    ];
    if (have < want - band) deficits.push({ profile_id: r.profile_id, units: want - have });
    else if (have > want) sources.push({ profile_id: r.profile_id, units: have - want });
  }
  return { scale, deficits, sources };
}

/** The transfers that bring each profile with a target to within its band, as far as the others' excess allows. */
export function planRebalance(
  balances: readonly RebalanceBalance[],
  targets: readonly RebalanceTarget[],
): RebalancePlan {
  assertInput(balances, targets);
  const available = new Map(balances.map((b) => [keyOf(b.profile_id, b.asset), b.available]));
  const assets = [...new Set(targets.map((t) => t.asset))].sort(byText);
  const plan: RebalancePlan = { transfers: [], short: [] };
  for (const asset of assets) {
    const { scale, deficits, sources } = partiesOf(
      targets.filter((t) => t.asset === asset),
      available,
    );
    const { moves, open } = planAsset(deficits, sources);
    const text = (units: bigint) => trimZeros(fromUnits(units, scale));
    const transfers = moves.map((m) => ({
      from_profile_id: m.from,
      to_profile_id: m.to,
      asset,
      amount: text(m.units),
    }));
    plan.transfers.push(
      ...transfers.sort(
        (a, b) => byText(a.from_profile_id, b.from_profile_id) || byText(a.to_profile_id, b.to_profile_id),
      ),
    );
    plan.short.push(...open.map((d) => ({ profile_id: d.profile_id, asset, missing: text(d.units) })));
  }
  return plan;
}
