import "server-only";
import type { Kysely } from "kysely";
import type { RebalanceTarget } from "@/lib/shared/rebalance-plan";
import type { Db } from "./index";
import { inKeyedLock } from "./person-lock";
import type { Database } from "./schema";

/**
 * The rebalancing targets (table `rebalance_targets`, migration 0012): every query on it. The set
 * is replaced as a whole (lib/server/rebalance/targets.ts), one replacement at a time. No HTTP here.
 */

/** The first key of the advisory lock a replacement holds: "rebalance" in a number. */
const TARGETS_LOCK_SPACE = 27_027;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Profile, then asset, in code point order on either database (their collations differ). */
const sorted = (targets: RebalanceTarget[]) =>
  targets.sort((a, b) => byText(a.profile_id, b.profile_id) || byText(a.asset, b.asset));

/** Every target, by profile then asset. */
export async function listRebalanceTargets(db: Kysely<Database>): Promise<RebalanceTarget[]> {
  const rows = await db.selectFrom("rebalance_targets").select(["profile_id", "asset", "target", "band"]).execute();
  return sorted(rows);
}

/**
 * Puts `targets` in place of every target, as set by `by` at `at`, and returns the set it
 * replaced: read and written in one step, so two replacements never interleave (each one's
 * "before" is the other's "after").
 */
export function replaceRebalanceTargets(
  db: Db,
  targets: readonly RebalanceTarget[],
  by: string,
  at: Date,
): Promise<{ before: RebalanceTarget[]; after: RebalanceTarget[] }> {
  return inKeyedLock(db, TARGETS_LOCK_SPACE, "targets", async (tx) => {
    const before = await listRebalanceTargets(tx);
    await tx.deleteFrom("rebalance_targets").execute();
    const rows = targets.map((t) => ({
      profile_id: t.profile_id,
      asset: t.asset,
      target: t.target,
      band: t.band,
      updated_at: at.toISOString(),
      updated_by: by,
    }));
    // 6 columns × 200 targets at most: far below either database's limit on parameters.
    if (rows.length > 0) await tx.insertInto("rebalance_targets").values(rows).execute();
    return {
      before,
      after: sorted(targets.map(({ profile_id, asset, target, band }) => ({ profile_id, asset, target, band }))),
    };
  });
}
