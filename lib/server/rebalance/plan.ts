import "server-only";
import { planRebalance, type RebalanceBalance, type RebalancePlan } from "@/lib/shared/rebalance-plan";
import { problem, ProblemError } from "@/lib/spec";
import { balancesOf } from "../create/controls/facts";
import { listRebalanceTargets } from "../db/rebalance-targets";
import type { Runtime } from "../runtime";
import { balancesUnavailable } from "./targets";

/**
 * `GET /api/rebalance/plan` (issue 27): the transfers that bring each profile with a target within
 * its band, from what the targeted profiles hold at the service now (lib/shared/rebalance-plan.ts
 * plans them). Only profiles with a target are read or named. Sends nothing.
 */

/** A balance as the service writes it: digits with an optional fraction, maybe signed. */
const BALANCE = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;

export async function rebalancePlan(rt: Runtime): Promise<RebalancePlan> {
  const targets = await listRebalanceTargets(rt.db);
  if (targets.length === 0) return { transfers: [], short: [] };
  const profiles = [...new Set(targets.map((t) => t.profile_id))];
  const read = await Promise.all(profiles.map(async (p) => [p, await balancesOf(rt, p)] as const));
  const gone = read.filter(([, b]) => b === "missing").map(([p]) => p);
  if (gone.length > 0) throw profilesGone(gone);
  const targeted = new Set(targets.map((t) => JSON.stringify([t.profile_id, t.asset])));
  const balances: RebalanceBalance[] = [];
  const unread: string[] = [];
  for (const [profile_id, items] of read) {
    if (!Array.isArray(items)) {
      unread.push(profile_id);
      continue;
    }
    for (const { asset, available } of items as { asset?: unknown; available?: unknown }[]) {
      if (typeof asset !== "string" || !targeted.has(JSON.stringify([profile_id, asset]))) continue;
      // A balance the plan cannot weigh exactly is one the service did not say.
      if (typeof available !== "string" || !BALANCE.test(available)) unread.push(profile_id);
      else balances.push({ profile_id, asset, available });
    }
  }
  if (unread.length > 0) throw balancesUnavailable([...new Set(unread)]);
  return planRebalance(balances, targets);
}

/** Targets name profiles the service no longer has: a 409, until the targets are changed. */
const profilesGone = (profiles: readonly string[]) =>
  new ProblemError(
    problem(
      409,
      "Conflict",
      `The targets name ${profiles.length === 1 ? "a profile" : "profiles"} the service does not have: ${profiles.join(", ")}. Change the targets.`,
      { profile_ids: [...profiles] },
    ),
  );
