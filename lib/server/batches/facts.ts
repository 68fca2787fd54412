import "server-only";
import { batchTotals, type BatchRow } from "@/lib/shared/batch-file";
import type { BatchFunds } from "@/lib/shared/batch";
import type { Policy } from "@/lib/shared/policy";
import type { Role } from "@/lib/shared/roles";
import { addDecimal, compareDecimal, type Problem } from "@/lib/spec";
import { marketsToValue, midsOf, valueInUsd } from "@/lib/spec/valuation";
import { balancesOf, priceUnavailable, roleNow, tickersOf, unknownProfile } from "../create/controls/facts";
import { currentPolicy } from "../db/policy";
import type { Runtime } from "../runtime";

/**
 * What the controls weigh a batch with, read before the person's lock as a single create's
 * facts are (lib/server/create/controls/facts.ts), and with the same readers: the policy in
 * force, the requester's role now, each row's worth in USD at the service's prices now (one
 * ticker read per market, however many rows), and each sending profile's funds against what the
 * batch takes from it, per asset. Reading writes nothing.
 */
export interface BatchFacts {
  policy: Policy;
  role: Role;
  /** Each row's worth in USD, in row order; "" where no market prices its asset. */
  rowValues: string[];
  /** The priced rows' sum. */
  valueUsd: string;
  /** The assets no market prices in USD: such a batch waits for approval. */
  unpriced: string[];
  funds: FundsLine[];
}

/** A sending profile's funds, and whether the service knows the profile at all. */
export type FundsLine = BatchFunds & { missing: boolean };

export async function readBatchFacts(rt: Runtime, rows: readonly BatchRow[], asked: Role, email: string) {
  const [policy, role, values, funds] = await Promise.all([
    currentPolicy(rt.db),
    roleNow(rt, email, asked),
    rowValuesOf(rt, rows),
    fundsOf(rt, rows),
  ]);
  const valueUsd = values.reduce((sum, v) => (v ? addDecimal(sum, v) : sum), "0");
  const unpriced = [...new Set(rows.filter((_, i) => values[i] === "").map((r) => r.asset))].sort();
  return { policy, role, rowValues: values, valueUsd, unpriced, funds } satisfies BatchFacts;
}

/** Each row's worth in USD: "" for an asset no market prices; a 503 when a price it needs cannot be read. */
async function rowValuesOf(rt: Runtime, rows: readonly BatchRow[]): Promise<string[]> {
  const markets = [...new Set(rows.flatMap((r) => marketsToValue(r.asset)))];
  const tickers = await tickersOf(rt, markets);
  const mids = midsOf(tickers.map(([market, ticker]) => [market, ticker] as const));
  return rows.map((r) => {
    if (r.asset !== "USD" && marketsToValue(r.asset).length === 0) return "";
    const value = valueInUsd(r.amount, r.asset, mids);
    if (value === undefined) priceUnavailable(marketsToValue(r.asset));
    return value;
  });
}

/** Per sending profile and asset: what the batch takes, and what the profile has available now (null: the service cannot say). */
export async function fundsOf(rt: Runtime, rows: readonly BatchRow[]): Promise<FundsLine[]> {
  const { outgoing } = batchTotals(rows);
  const profiles = [...new Set(outgoing.map((o) => o.profile_id))];
  const balances = new Map(await Promise.all(profiles.map(async (p) => [p, await balancesOf(rt, p)] as const)));
  return outgoing.map(({ profile_id, asset, total }) => {
    const held = balances.get(profile_id);
    const available = Array.isArray(held) ? (held.find((b) => b.asset === asset)?.available ?? "0") : null;
    return { profile_id, asset, needed: total, available, missing: held === "missing" };
  });
}

/**
 * The refusal the funds call for, or undefined: a sending profile the service does not know
 * (404), or the first profile and asset whose available balance is short of what the batch
 * takes (403, in the service's insufficient-funds shape, naming the profile, asset, available
 * and needed). Where the service could not say, its answer to each row stays the final word.
 */
export function fundsRefusal(funds: readonly FundsLine[]): Problem | undefined {
  const missing = funds.find((f) => f.missing);
  if (missing) return unknownProfile(missing.profile_id, "from_profile");
  const short = funds.find((f) => f.available !== null && compareDecimal(f.needed, f.available) > 0);
  if (!short) return undefined;
  return {
    type: "/problems/insufficient-funds",
    title: "Insufficient Funds",
    status: 403,
    detail: `insufficient ${short.asset} funds in profile ${short.profile_id}: the batch sends ${short.needed} from it, ${short.available} available`,
    meta: { profile_id: short.profile_id, asset: short.asset, available: short.available, needed: short.needed },
  };
}
