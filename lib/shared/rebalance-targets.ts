import * as z from "zod/mini";
import type { $ZodError } from "zod/v4/core";
import { identifier, nonNegativeDecimal } from "@/lib/spec/fields";
import { ASSETS } from "@/lib/spec/markets";
import type { FieldError } from "@/lib/spec/problem";
import type { RebalanceTarget } from "./rebalance-plan";

/**
 * The desk's rebalancing targets as `PUT /api/rebalance/targets` takes them (issue 27):
 * `{"targets": [{profile_id, asset, target, band}]}`, the whole set at once. One schema for the
 * page's form and the route handler; whether each profile exists is the server's to ask the service.
 */

/** The most targets the desk may set. */
export const REBALANCE_MAX_TARGETS = 200;

const EXAMPLE = '{"profile_id": "…", "asset": "USD", "target": "250000", "band": "25000"}';

const assetSchema = z.enum(ASSETS as [string, ...string[]], {
  error: (issue) => (issue.input === undefined ? "Asset is required" : `Asset must be one of ${ASSETS.join(", ")}`),
});

export const rebalanceTargetSchema = z.strictObject(
  {
    profile_id: identifier("Profile"),
    asset: assetSchema,
    target: nonNegativeDecimal("Target"),
    band: nonNegativeDecimal("Band"),
  },
  { error: `Each target must be an object such as ${EXAMPLE}` },
);

const isText = (v: unknown): v is string => typeof v === "string";

/** A second target for a profile and asset: named on its asset, with where the first one is. */
const oneTargetEach = z.superRefine(
  (targets: unknown[], ctx) => {
    const first = new Map<string, number>();
    targets.forEach((t, i) => {
      const { profile_id: profile, asset } = (t ?? {}) as Record<string, unknown>;
      if (!isText(profile) || !isText(asset)) return;
      const key = JSON.stringify([profile, asset]);
      const seen = first.get(key);
      if (seen === undefined) return void first.set(key, i);
      ctx.addIssue({
        code: "custom",
        path: [i, "asset"],
        input: asset,
        message: `Profile ${profile} already has a target in ${asset} (targets[${seen}]): one target per profile and asset`,
      });
    });
  },
  // Also when some targets are refused: every repeat is named at once, beside their other errors.
  { when: (payload) => Array.isArray(payload.value) },
);

export const rebalanceTargetsSchema = z.strictObject({
  targets: z
    .array(rebalanceTargetSchema, {
      error: (issue) =>
        issue.input === undefined
          ? `Targets is required: a list such as [${EXAMPLE}] ([] for none)`
          : `Targets must be a list such as [${EXAMPLE}]`,
    })
    .check(z.maxLength(REBALANCE_MAX_TARGETS, `There may be at most ${REBALANCE_MAX_TARGETS} targets`), oneTargetEach),
});

export type RebalanceTargets = { targets: RebalanceTarget[] };

/** A path as a person reads it: `targets[2].band`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    "",
  );
}

/**
 * One entry per refused field, named by its path (`targets[2].band`), the first rule it broke
 * (as the form shows one); an unknown key, on that key. In the list's order: the body's own
 * fields, then target by target.
 */
export function targetErrors(error: $ZodError): FieldError[] {
  const errors = new Map<string, { at: number; message: string }>();
  for (const issue of error.issues) {
    const at = typeof issue.path[1] === "number" ? issue.path[1] : -1;
    const named =
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => [fieldPath([...issue.path, key]), `Unknown field "${key}"`] as const)
        : [[fieldPath(issue.path) || "body", issue.message] as const];
    for (const [field, message] of named) if (!errors.has(field)) errors.set(field, { at, message });
  }
  return [...errors].sort(([, a], [, b]) => a.at - b.at).map(([field, { message }]) => ({ field, message }));
}
