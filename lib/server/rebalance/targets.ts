import "server-only";
import * as z from "zod/mini";
import type { RebalanceTarget } from "@/lib/shared/rebalance-plan";
import { rebalanceTargetsSchema, targetErrors } from "@/lib/shared/rebalance-targets";
import { problem, ProblemError, type FieldError } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { listRebalanceTargets, replaceRebalanceTargets } from "../db/rebalance-targets";
import type { Runtime } from "../runtime";
import { balancesOf } from "../create/controls/facts";

/**
 * The desk's rebalancing targets (issue 27): read, and replaced as a whole set by ops or an admin.
 * A replacement is checked field by field (lib/shared/rebalance-targets.ts), then each profile it
 * names against the service, before anything is stored; each one stored is audited with its
 * before and after.
 */

export const readTargets = (rt: Runtime): Promise<RebalanceTarget[]> => listRebalanceTargets(rt.db);

const refused = (errors: FieldError[]) =>
  new ProblemError(problem(400, "Bad Request", errors.map((e) => `${e.field}: ${e.message}`).join("; "), { errors }));

/**
 * Whether the service has each of `profiles` (its balances, read now): the ones it does not, or
 * a 503 when it could not say for one of them (nothing is stored on a guess).
 */
export async function unknownProfiles(rt: Runtime, profiles: readonly string[]): Promise<Set<string>> {
  const read = await Promise.all([...new Set(profiles)].map(async (p) => [p, await balancesOf(rt, p)] as const));
  const unread = read.filter(([, b]) => b === "unknown").map(([p]) => p);
  if (unread.length > 0) throw balancesUnavailable(unread);
  return new Set(read.filter(([, b]) => b === "missing").map(([p]) => p));
}

/** The service could not say what these profiles hold: a 503, naming them. */
export const balancesUnavailable = (profiles: readonly string[]): ProblemError =>
  new ProblemError(
    problem(
      503,
      "Balances Unavailable",
      `The service could not say what ${profiles.length === 1 ? "profile" : "profiles"} ${profiles.join(", ")} ${profiles.length === 1 ? "holds" : "hold"}. Try again shortly.`,
      { profile_ids: [...profiles] },
    ),
  );

/**
 * `PUT /api/rebalance/targets`: `{"targets": [...]}` in place of every target. A 400 names each
 * refused field (`targets[2].band`), a profile the service does not have among them.
 */
export async function replaceTargets(
  rt: Runtime,
  user: SignedInUser,
  input: unknown,
  ip: string | null,
): Promise<RebalanceTarget[]> {
  const parsed = z.safeParse(rebalanceTargetsSchema, input);
  if (!parsed.success) throw refused(targetErrors(parsed.error));
  const { targets } = parsed.data;
  const missing = await unknownProfiles(
    rt,
    targets.map((t) => t.profile_id),
  );
  if (missing.size > 0) {
    throw refused(
      targets.flatMap((t, i) =>
        missing.has(t.profile_id)
          ? [{ field: `targets[${i}].profile_id`, message: `There is no profile ${t.profile_id} at the service` }]
          : [],
      ),
    );
  }
  return oneAtATime(rt, async () => {
    const { before, after } = await replaceRebalanceTargets(rt.db, targets, user.email, new Date(rt.clock.now()));
    await rt.audit.append({
      action: "rebalance.targets_changed",
      actor: user,
      ip,
      subject: "rebalance-targets",
      detail: { before, after },
    });
    return after;
  });
}

/**
 * One replacement at a time in this process, its audit entry included, so the trail lists them
 * in the order they applied (each entry's before is the previous one's after). The database's
 * lock alone keeps each before and after true across instances (PostgreSQL).
 */
const queues = new WeakMap<Runtime, Promise<unknown>>();
function oneAtATime<T>(rt: Runtime, step: () => Promise<T>): Promise<T> {
  // The queue never rejects: a failed replacement does not hold up the next.
  const run = (queues.get(rt) ?? Promise.resolve()).then(step);
  queues.set(
    rt,
    run.catch(() => undefined),
  );
  return run;
}
